import { useCallback, useEffect, useRef, useState } from "react";
import { Form, useNavigation } from "react-router";
import { requireAdmin } from "~/admin/session.server";
import { AdminPageHeader, adminPageClass } from "~/components/admin/AdminShell";
import { seo, siteUrlFrom } from "~/lib/seo";
import { checkInByCode, checkInConflicts, doorEvents, undoLastCheckIn } from "~/tickets/check-in.server";
import { doorMessage, saClock, type DoorRequest, type DoorResult } from "~/tickets/door";
import type { Route } from "./+types/check-in";

/** The device id a form post without JavaScript checks in as. */
const FORM_DEVICE = "door-form";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const choices = await doorEvents(context.db);
  const wanted = new URL(request.url).searchParams.get("event");
  const now = context.clock.now().getTime();
  // By default the session happening now or next; else the latest one.
  const chosen =
    choices.find((c) => c.key === wanted) ??
    choices.find((c) => c.startsAt && new Date(c.startsAt).getTime() + 6 * 3_600_000 > now) ??
    choices[choices.length - 1] ??
    null;
  return { choices, chosen, conflicts: chosen ? await checkInConflicts(context.db, chosen.eventId) : [] };
}

export async function action({ request, context }: Route.ActionArgs) {
  await requireAdmin(request, context);
  const form = await request.formData();
  const deviceId = String(form.get("deviceId") ?? FORM_DEVICE).replace(/[^A-Za-z0-9_-]/g, "").slice(0, 64) || FORM_DEVICE;
  const now = context.clock.now();
  if (form.get("intent") === "undo") {
    const undone = await undoLastCheckIn(context.db, deviceId, now);
    return { message: undone ? `Check-in undone: ${undone.holderName}` : "Nothing to undo on this device.", result: null };
  }
  const code = String(form.get("code") ?? "").slice(0, 300).trim();
  if (!code) return { message: "Type or scan a ticket code.", result: null };
  const eventId = String(form.get("eventId") ?? "").slice(0, 100) || undefined;
  const result: DoorResult = await checkInByCode(context.db, { code, deviceId, now, eventId });
  return { message: null, result };
}

interface DoorTicket {
  code: string;
  name: string;
  type: string;
  checkedInAt: string | null;
}
interface QueuedScan {
  clientScanId: string;
  code: string;
  scannedAt: string;
}

const DEVICE_KEY = "door-device-id";
const listKey = (eventKey: string) => `door-list:${eventKey}`;
const QUEUE_KEY = "door-queue";

function readJson<T>(key: string, fallback: T): T {
  try {
    return JSON.parse(localStorage.getItem(key) ?? "") as T;
  } catch {
    return fallback;
  }
}

function deviceIdOf(): string {
  let id = localStorage.getItem(DEVICE_KEY);
  if (!id) {
    id = `d${crypto.randomUUID().replace(/-/g, "").slice(0, 20)}`;
    localStorage.setItem(DEVICE_KEY, id);
  }
  return id;
}

async function postDoor(request: DoorRequest): Promise<Response> {
  return fetch("/admin/check-in/data", { method: "POST", body: new URLSearchParams({ payload: JSON.stringify(request) }), credentials: "same-origin" });
}

const panelClass: Record<DoorResult["outcome"], string> = {
  admitted: "bg-leaf text-white",
  already: "bg-[#8b1a1a] text-white",
  invalid: "bg-[#8b1a1a] text-white",
  conflict: "bg-[#8b1a1a] text-white",
};

/**
 * The door: type or scan a code and see a large answer. With JavaScript it keeps the session's ticket
 * list in localStorage, admits from it while offline, queues those admissions and syncs them when
 * the network returns (and on every load); without it the form posts and the server answers.
 */
export default function CheckIn({ loaderData, actionData }: Route.ComponentProps) {
  const { choices, chosen, conflicts } = loaderData;
  const navigation = useNavigation();
  const [result, setResult] = useState<DoorResult | null>(actionData?.result ?? null);
  const [note, setNote] = useState<string | null>(actionData?.message ?? null);
  const [pending, setPending] = useState(0);
  const [listInfo, setListInfo] = useState<string | null>(null);
  const [syncConflicts, setSyncConflicts] = useState<string[]>([]);
  const [canScan, setCanScan] = useState(false);
  const [scanning, setScanning] = useState(false);
  const codeInput = useRef<HTMLInputElement>(null);
  const video = useRef<HTMLVideoElement>(null);
  const eventKey = chosen?.key ?? "";

  useEffect(() => {
    setResult(actionData?.result ?? null);
    setNote(actionData?.message ?? null);
  }, [actionData]);

  const sync = useCallback(async () => {
    const queue = readJson<QueuedScan[]>(QUEUE_KEY, []);
    setPending(queue.length);
    if (!queue.length || !navigator.onLine) return;
    try {
      const response = await postDoor({ intent: "sync", deviceId: deviceIdOf(), scans: queue });
      if (!response.ok) return;
      const { synced } = (await response.json()) as { synced: { clientScanId: string; outcome: string; holderName?: string }[] };
      const done = new Set(synced.map((s) => s.clientScanId));
      const left = readJson<QueuedScan[]>(QUEUE_KEY, []).filter((s) => !done.has(s.clientScanId));
      localStorage.setItem(QUEUE_KEY, JSON.stringify(left));
      setPending(left.length);
      const clashes = synced.filter((s) => s.outcome === "conflict").map((s) => s.holderName ?? "A ticket");
      if (clashes.length) setSyncConflicts((old) => [...old, ...clashes]);
    } catch {
      // Still offline: the queue waits for the next "online" event.
    }
  }, []);

  const downloadList = useCallback(async () => {
    if (!chosen) return;
    const params = new URLSearchParams({ event: chosen.eventId, session: chosen.startsAt ?? "" });
    try {
      const response = await fetch(`/admin/check-in/data?${params}`, { credentials: "same-origin" });
      if (!response.ok) throw new Error(String(response.status));
      const { tickets } = (await response.json()) as { tickets: DoorTicket[] };
      localStorage.setItem(listKey(eventKey), JSON.stringify(tickets));
      setListInfo(`${tickets.length} tickets saved on this device for offline check-in.`);
    } catch {
      const saved = readJson<DoorTicket[] | null>(listKey(eventKey), null);
      setListInfo(saved ? `Offline: using the ${saved.length} tickets saved earlier.` : "Offline and no ticket list saved yet.");
    }
  }, [chosen, eventKey]);

  useEffect(() => {
    setCanScan("BarcodeDetector" in window);
    void sync().then(downloadList);
    const onOnline = () => void sync().then(downloadList);
    window.addEventListener("online", onOnline);
    return () => window.removeEventListener("online", onOnline);
  }, [sync, downloadList]);

  /** Admits from the saved list when the server cannot be reached. */
  const admitOffline = useCallback(
    (code: string): DoorResult => {
      const list = readJson<DoorTicket[]>(listKey(eventKey), []);
      const trimmed = code.trim().replace(/^.*\/ticket\//, "").replace(/\/$/, "");
      const ticket = list.find((t) => t.code === trimmed);
      if (!ticket) return { outcome: "invalid", offline: true };
      if (ticket.checkedInAt) return { outcome: "already", checkedInAt: ticket.checkedInAt, holderName: ticket.name, offline: true };
      const scannedAt = new Date().toISOString();
      ticket.checkedInAt = scannedAt;
      localStorage.setItem(listKey(eventKey), JSON.stringify(list));
      const queue = readJson<QueuedScan[]>(QUEUE_KEY, []);
      queue.push({ clientScanId: crypto.randomUUID(), code: trimmed, scannedAt });
      localStorage.setItem(QUEUE_KEY, JSON.stringify(queue));
      setPending(queue.length);
      return { outcome: "admitted", holderName: ticket.name, ticketType: ticket.type, offline: true };
    },
    [eventKey],
  );

  const check = useCallback(
    async (code: string) => {
      setNote(null);
      let answer: DoorResult;
      try {
        if (!navigator.onLine) throw new Error("offline");
        const response = await postDoor({ intent: "scan", deviceId: deviceIdOf(), code, eventId: chosen?.eventId });
        if (!response.ok) throw new Error(String(response.status));
        answer = ((await response.json()) as { result: DoorResult }).result;
        // Keep the saved list in step, so a later offline scan of this ticket says "already".
        const list = readJson<DoorTicket[]>(listKey(eventKey), []);
        const entry = list.find((t) => t.code === code.trim());
        if (entry && answer.checkedInAt) {
          entry.checkedInAt = answer.checkedInAt;
          localStorage.setItem(listKey(eventKey), JSON.stringify(list));
        }
      } catch {
        answer = admitOffline(code);
      }
      setResult(answer);
      if (codeInput.current) {
        codeInput.current.value = "";
        codeInput.current.focus();
      }
    },
    [admitOffline, chosen, eventKey],
  );

  const onSubmit = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const code = String(new FormData(event.currentTarget).get("code") ?? "").trim();
    if (!code) {
      setNote("Type or scan a ticket code.");
      return;
    }
    void check(code);
  };

  const onUndo = async (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    try {
      const response = await postDoor({ intent: "undo", deviceId: deviceIdOf() });
      const { undone } = (await response.json()) as { undone: DoorResult | null };
      setResult(null);
      setNote(undone ? `Check-in undone: ${undone.holderName}` : "Nothing to undo on this device.");
      void downloadList();
    } catch {
      setNote("Undo needs the network: try again when you are back online.");
    }
  };

  const startCamera = async () => {
    const Detector = (window as unknown as { BarcodeDetector?: new (o: { formats: string[] }) => { detect(v: HTMLVideoElement): Promise<{ rawValue: string }[]> } }).BarcodeDetector;
    if (!Detector || !video.current) return;
    const stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment" } });
    video.current.srcObject = stream;
    await video.current.play();
    setScanning(true);
    const detector = new Detector({ formats: ["qr_code"] });
    let last = "";
    const tick = async () => {
      if (!video.current?.srcObject) return;
      const codes = await detector.detect(video.current).catch(() => []);
      const value = codes[0]?.rawValue;
      if (value && value !== last) {
        last = value;
        await check(value);
      }
      requestAnimationFrame(() => void tick());
    };
    void tick();
  };

  const stopCamera = () => {
    const stream = video.current?.srcObject as MediaStream | null;
    stream?.getTracks().forEach((t) => t.stop());
    if (video.current) video.current.srcObject = null;
    setScanning(false);
  };

  const busy = navigation.state === "submitting";
  const allConflicts = [...conflicts.map((c) => c.holderName), ...syncConflicts];

  return (
    <div className={adminPageClass}>
      <AdminPageHeader title="Check-in" />
      {choices.length === 0 ? (
        <p className="text-ink-soft">No tickets have been sold yet.</p>
      ) : (
        <Form method="get" className="card flex flex-wrap items-end gap-3 p-4">
          <div className="min-w-0 flex-1 basis-56">
            <label htmlFor="door-event" className="block text-sm font-semibold">Event and session</label>
            <select id="door-event" name="event" defaultValue={chosen?.key} className="mt-1 block min-h-11 w-full rounded-xl border border-ink/30 bg-white px-3">
              {choices.map((c) => (
                <option key={c.key} value={c.key}>
                  {c.title}
                  {c.startsAt ? `, ${c.startsAt.slice(0, 10)} ${saClock(c.startsAt)}` : ""} ({c.count})
                </option>
              ))}
            </select>
          </div>
          <button type="submit" className="btn-outline min-h-11 px-4 py-1.5">Open</button>
        </Form>
      )}

      <div role="status" aria-live="assertive" aria-atomic="true" className="min-h-24">
        {result ? (
          <p className={`rounded-3xl p-6 text-2xl font-bold leading-snug sm:text-3xl ${panelClass[result.outcome]}`}>{doorMessage(result)}</p>
        ) : note ? (
          <p className="rounded-3xl bg-cream-deep p-6 text-xl font-semibold">{note}</p>
        ) : (
          <p className="rounded-3xl bg-cream-deep p-6 text-xl">Ready: scan or type a ticket code.</p>
        )}
      </div>

      <Form method="post" onSubmit={onSubmit} className="card space-y-3 p-4">
        <input type="hidden" name="eventId" value={chosen?.eventId ?? ""} />
        <label htmlFor="door-code" className="block text-lg font-semibold">Ticket code</label>
        <input
          ref={codeInput}
          id="door-code"
          name="code"
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
          className="block min-h-14 w-full rounded-xl border-2 border-ink/40 bg-white px-3 font-mono text-lg"
        />
        <div className="flex flex-wrap gap-3">
          <button type="submit" disabled={busy} className="btn-primary min-h-12 px-6 text-lg">Check in</button>
          {canScan ? (
            scanning ? (
              <button type="button" onClick={stopCamera} className="btn-outline min-h-12 px-6">Stop camera</button>
            ) : (
              <button type="button" onClick={() => void startCamera().catch(() => setNote("The camera could not be started."))} className="btn-outline min-h-12 px-6">
                Scan with camera
              </button>
            )
          ) : null}
        </div>
        <video ref={video} muted playsInline aria-label="Camera view for scanning" className={scanning ? "w-full rounded-xl" : "hidden"} />
      </Form>

      <Form method="post" onSubmit={(e) => void onUndo(e)}>
        <input type="hidden" name="intent" value="undo" />
        <button type="submit" className="btn-outline min-h-11 px-4 py-1.5">Undo last check-in</button>
      </Form>

      <section aria-labelledby="door-sync" className="card space-y-2 p-4 text-sm">
        <h2 id="door-sync" className="font-semibold">This device</h2>
        <p>{pending === 1 ? "1 offline check-in waiting to sync." : `${pending} offline check-ins waiting to sync.`}</p>
        {listInfo ? <p>{listInfo}</p> : null}
      </section>

      {allConflicts.length ? (
        <section aria-labelledby="door-conflicts" className="card space-y-2 border-2 border-[#8b1a1a] p-4">
          <h2 id="door-conflicts" className="font-semibold">Conflicts: admitted on two devices</h2>
          <ul className="list-disc pl-5">
            {conflicts.map((c) => (
              <li key={c.id}>
                {c.holderName}: first admitted {c.firstAt ? `at ${saClock(c.firstAt)}` : ""} on {c.firstDevice ?? "another device"}, again at {saClock(c.scannedAt)} on {c.deviceId}
              </li>
            ))}
            {syncConflicts.map((name, i) => (
              <li key={`sync-${i}`}>{name}: admitted offline here after another device had admitted it</li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) =>
  seo({ title: "Check-in", description: "Admit ticket holders at the door.", path: "/admin/check-in", siteUrl: siteUrlFrom(matches), noindex: true });
