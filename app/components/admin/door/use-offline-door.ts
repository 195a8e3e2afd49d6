// The door's memory on this phone (decision 105): the event's ticket list and the admissions made
// offline, kept in localStorage, so the door admits and searches without signal and syncs its queue when
// the network returns (and on every load).
import { useCallback, useEffect, useState } from "react";
import {
  answerFromList,
  type DoorOtherTicket,
  type DoorRequest,
  type DoorResult,
  type DoorTicket,
} from "~/tickets/door";

/** An admission made offline, waiting to sync. */
interface QueuedScan {
  clientScanId: string;
  code: string;
  scannedAt: string;
  /** The event whose list admitted it (older queues lack it: they sync with the open event). */
  eventId?: string;
}
/** The event's tickets as last fetched, for searching and admitting offline. */
export interface SavedList {
  tickets: DoorTicket[];
  others: DoorOtherTicket[];
}

const DEVICE_KEY = "door-device-id";
export const listKey = (eventId: string) => `door-list:${eventId}`;
const QUEUE_KEY = "door-queue";
/** How often an open door page fetches the list again while online, so other phones' admissions count. */
const REFRESH_MS = 30_000;

export function readJson<T>(key: string, fallback: T): T {
  try {
    return (JSON.parse(localStorage.getItem(key) ?? "") as T) ?? fallback;
  } catch {
    return fallback;
  }
}

export function deviceIdOf(): string {
  let id = localStorage.getItem(DEVICE_KEY);
  if (!id) {
    id = `d${crypto.randomUUID().replace(/-/g, "").slice(0, 20)}`;
    localStorage.setItem(DEVICE_KEY, id);
  }
  return id;
}

export async function postDoor(request: DoorRequest): Promise<Response> {
  return fetch("/admin/check-in/data", {
    method: "POST",
    body: new URLSearchParams({ payload: JSON.stringify(request) }),
    credentials: "same-origin",
  });
}

/** The offline list and queue of one event's door, and what the page shows of them. */
export function useOfflineDoor(eventId: string) {
  const [pending, setPending] = useState(0);
  const [listInfo, setListInfo] = useState<string | null>(null);
  const [saved, setSaved] = useState<SavedList | null>(null);
  const [syncConflicts, setSyncConflicts] = useState<string[]>([]);

  const sync = useCallback(async () => {
    const queue = readJson<QueuedScan[]>(QUEUE_KEY, []);
    setPending(queue.length);
    if (!queue.length || !navigator.onLine) return;
    const byEvent = new Map<string, QueuedScan[]>();
    for (const scan of queue) {
      const key = scan.eventId ?? eventId;
      if (key) byEvent.set(key, [...(byEvent.get(key) ?? []), scan]);
    }
    for (const [batchEvent, scans] of byEvent) {
      try {
        const response = await postDoor({
          intent: "sync",
          deviceId: deviceIdOf(),
          eventId: batchEvent,
          deviceNow: new Date().toISOString(),
          scans: scans.map(({ clientScanId, code, scannedAt }) => ({ clientScanId, code, scannedAt })),
        });
        if (!response.ok) continue;
        const { synced } = (await response.json()) as {
          synced: { clientScanId: string; outcome: string; holderName?: string }[];
        };
        const done = new Set(synced.map((s) => s.clientScanId));
        const left = readJson<QueuedScan[]>(QUEUE_KEY, []).filter((s) => !done.has(s.clientScanId));
        localStorage.setItem(QUEUE_KEY, JSON.stringify(left));
        setPending(left.length);
        const clashes = synced.filter((s) => s.outcome === "conflict").map((s) => s.holderName ?? "A ticket");
        if (clashes.length) setSyncConflicts((old) => [...old, ...clashes]);
      } catch {
        // Still offline: the queue waits for the next "online" event.
      }
    }
  }, [eventId]);

  const downloadList = useCallback(async () => {
    if (!eventId) return;
    try {
      const response = await fetch(`/admin/check-in/data?${new URLSearchParams({ event: eventId })}`, {
        credentials: "same-origin",
      });
      if (!response.ok) throw new Error(String(response.status));
      const { tickets, others } = (await response.json()) as SavedList;
      localStorage.setItem(listKey(eventId), JSON.stringify({ tickets, others }));
      setSaved({ tickets, others });
      setListInfo(`${tickets.length} tickets saved on this device for offline check-in.`);
    } catch {
      const old = readJson<SavedList | null>(listKey(eventId), null);
      setSaved(old);
      setListInfo(
        old
          ? `Offline: using the ${old.tickets.length} tickets saved earlier.`
          : "Offline and no ticket list saved yet.",
      );
    }
  }, [eventId]);

  useEffect(() => {
    void sync().then(downloadList);
    const onOnline = () => void sync().then(downloadList);
    window.addEventListener("online", onOnline);
    const refresh = setInterval(() => {
      if (navigator.onLine && document.visibilityState === "visible") void downloadList();
    }, REFRESH_MS);
    return () => {
      window.removeEventListener("online", onOnline);
      clearInterval(refresh);
    };
  }, [sync, downloadList]);

  /** Writes what the door now knows about one ticket into the saved list (and the counters). */
  const remember = useCallback(
    (ticket: DoorTicket | undefined, change: Partial<DoorTicket>) => {
      const list = readJson<SavedList | null>(listKey(eventId), null);
      const entry = ticket && list?.tickets.find((t) => t.code === ticket.code);
      if (!list || !entry) return;
      Object.assign(entry, change);
      localStorage.setItem(listKey(eventId), JSON.stringify(list));
      setSaved(list);
    },
    [eventId],
  );

  /** Admits from the saved list when the server cannot be reached, and queues the admission. */
  const admitOffline = useCallback(
    (code: string): DoorResult => {
      const list = readJson<SavedList>(listKey(eventId), { tickets: [], others: [] });
      const { result: answer, ticket } = answerFromList(list.tickets, list.others, code, deviceIdOf());
      if (answer.outcome !== "admitted" || !ticket) return answer;
      const scannedAt = new Date().toISOString();
      remember(ticket, { checkedInAt: scannedAt, checkedInDevice: deviceIdOf() });
      const queue = readJson<QueuedScan[]>(QUEUE_KEY, []);
      queue.push({ clientScanId: crypto.randomUUID(), code: ticket.code, scannedAt, eventId });
      localStorage.setItem(QUEUE_KEY, JSON.stringify(queue));
      setPending(queue.length);
      return answer;
    },
    [eventId, remember],
  );

  return { pending, listInfo, saved, syncConflicts, downloadList, remember, admitOffline };
}
