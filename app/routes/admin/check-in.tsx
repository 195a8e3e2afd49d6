import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { Form, useNavigation } from "react-router";
import { textFields, validateForm } from "~/lib/form";
import { AdminPageHeader, adminPageClass } from "~/components/admin/AdminShell";
import { DoorAnswer } from "~/components/admin/door/DoorAnswer";
import { DoorMatches } from "~/components/admin/door/DoorMatches";
import {
  deviceIdOf,
  listKey,
  postDoor,
  readJson,
  useOfflineDoor,
  type SavedList,
} from "~/components/admin/door/use-offline-door";
import { seo, siteUrlFrom } from "~/lib/seo";
import { checkInByCode, undoLastCheckIn } from "~/tickets/check-in.server";
import { checkInConflicts, doorCounts, doorEvents, doorTicketList } from "~/tickets/door-lists.server";
import { bareCode, countsOf, looksLikeTicketCode, matchDoorTickets, saClock, type DoorResult } from "~/tickets/door";
import { DOOR_FORM_FIELDS, doorFormSchema } from "~/tickets/door-form";
import { canUseCamera, startQrScanning } from "~/tickets/qr-camera";
import { parseShortCode } from "~/tickets/short-code";
import type { Route } from "./+types/check-in";

export async function loader({ request, context }: Route.LoaderArgs) {
  const choices = await doorEvents(context.db);
  const wanted = new URL(request.url).searchParams.get("event");
  const now = context.clock.now().getTime();
  // By default the session happening now or next; else the latest one.
  const chosen =
    choices.find((c) => c.key === wanted) ??
    choices.find((c) => c.startsAt && new Date(c.startsAt).getTime() + 6 * 3_600_000 > now) ??
    choices[choices.length - 1] ??
    null;
  return {
    choices,
    chosen,
    counts: chosen ? await doorCounts(context.db, chosen.eventId, chosen.startsAt) : null,
    conflicts: chosen ? await checkInConflicts(context.db, chosen.eventId) : [],
  };
}

/** Without JavaScript: a code admits (or is refused, saying why); anything else searches the event's tickets. */
export async function action({ request, context }: Route.ActionArgs) {
  const checked = validateForm(doorFormSchema, textFields(await request.formData(), DOOR_FORM_FIELDS));
  // The schema refuses nothing (it tidies what was typed); a failure would be a bug, so it throws.
  if (!checked.ok) throw new Error(`Door form refused: ${JSON.stringify(checked.fieldErrors)}`);
  const { intent, deviceId, code, eventId } = checked.data;
  const now = context.clock.now();
  if (intent === "undo") {
    const undone = await undoLastCheckIn(context.db, deviceId, now);
    return {
      message: undone ? `Check-in undone: ${undone.holderName}` : "Nothing to undo on this device.",
      result: null,
      matches: null,
    };
  }
  if (!code) return { message: "Type or scan a ticket code, or two letters of a name.", result: null, matches: null };
  if (!looksLikeTicketCode(code) && eventId) {
    if (code.length < 2)
      return {
        message: "Type at least two letters of a name, an email or an order reference.",
        result: null,
        matches: null,
      };
    const matches = matchDoorTickets((await doorTicketList(context.db, eventId, now)).tickets, code);
    return { message: matches.length ? null : `No ticket matches “${code}”.`, result: null, matches };
  }
  const result: DoorResult = await checkInByCode(context.db, { code, deviceId, now, eventId });
  return { message: null, result, matches: null };
}

const CAMERA_AFTER_LOAD = "door-camera-after-load";

/** Whether this document was loaded at the door's address (not reached by a client-side link). */
function documentLoadedHere(): boolean {
  const [entry] = performance.getEntriesByType("navigation");
  return !entry || new URL(entry.name).pathname === "/admin/check-in";
}

/**
 * The door: scan (the camera reads continuously), type a code, or type two letters of a name and press
 * Admit; every refusal says why. With JavaScript it keeps the event's ticket list in localStorage,
 * searches and admits from it while offline, queues those admissions and syncs them when the network
 * returns (and on every load); without it the form posts and the server answers and searches.
 */
export default function CheckIn({ loaderData, actionData }: Route.ComponentProps) {
  const { choices, chosen, conflicts } = loaderData;
  const navigation = useNavigation();
  const [result, setResult] = useState<DoorResult | null>(actionData?.result ?? null);
  const [note, setNote] = useState<string | null>(actionData?.message ?? null);
  const [query, setQuery] = useState("");
  const [cameraReady, setCameraReady] = useState(false);
  const [scanning, setScanning] = useState(false);
  const stopScanning = useRef<(() => void) | null>(null);
  const codeInput = useRef<HTMLInputElement>(null);
  const video = useRef<HTMLVideoElement>(null);
  const eventId = chosen?.eventId ?? "";
  const session = chosen?.startsAt ?? null;
  const { pending, listInfo, saved, syncConflicts, downloadList, remember, admitOffline } = useOfflineDoor(eventId);

  useEffect(() => {
    setResult(actionData?.result ?? null);
    setNote(actionData?.message ?? null);
  }, [actionData]);

  useEffect(() => setCameraReady(canUseCamera()), []);

  useEffect(() => () => stopScanning.current?.(), []);

  useEffect(() => {
    if (sessionStorage.getItem(CAMERA_AFTER_LOAD) !== "1") return;
    sessionStorage.removeItem(CAMERA_AFTER_LOAD);
    void startCamera();
    // Once, after the reload startCamera asked for.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const check = useCallback(
    async (code: string) => {
      setNote(null);
      let answer: DoorResult;
      try {
        if (!navigator.onLine) throw new Error("offline");
        const response = await postDoor({
          intent: "scan",
          deviceId: deviceIdOf(),
          code,
          eventId: eventId || undefined,
        });
        if (!response.ok) throw new Error(String(response.status));
        answer = ((await response.json()) as { result: DoorResult }).result;
        // Keep the saved list in step, so a later offline scan of this ticket answers the same.
        const short = parseShortCode(code);
        const entry = readJson<SavedList | null>(listKey(eventId), null)?.tickets.find(
          (t) => t.code === bareCode(code) || (short !== null && t.shortCode === short),
        );
        if (answer.outcome === "admitted")
          remember(entry, {
            checkedInAt: answer.checkedInAt ?? new Date().toISOString(),
            checkedInDevice: deviceIdOf(),
          });
        else if (answer.outcome === "refunded")
          remember(entry, { voidedAt: answer.voidedAt ?? new Date().toISOString() });
        else if (answer.outcome === "already" && answer.checkedInAt)
          remember(entry, { checkedInAt: answer.checkedInAt });
      } catch {
        answer = admitOffline(code);
      }
      setResult(answer);
      setQuery("");
      if (codeInput.current) {
        codeInput.current.value = "";
        if (!stopScanning.current) codeInput.current.focus();
      }
    },
    [admitOffline, eventId, remember],
  );

  const sessionTickets = useMemo(
    () => (saved ? saved.tickets.filter((t) => t.session === session) : null),
    [saved, session],
  );
  const matches = sessionTickets ? matchDoorTickets(sessionTickets, query) : (actionData?.matches ?? []);
  const counts = sessionTickets ? countsOf(sessionTickets, session) : loaderData.counts;

  const onSubmit = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const typed = textFields(new FormData(event.currentTarget), ["code"]).code.trim();
    if (!typed) {
      setNote("Type or scan a ticket code, or two letters of a name.");
      return;
    }
    const known =
      saved &&
      [...saved.tickets, ...saved.others].some(
        (t) => t.shortCode === parseShortCode(typed) || t.code === bareCode(typed),
      );
    // An eight-letter name can look like a door code: when the list knows no such code but the name matches, point to the list.
    if (looksLikeTicketCode(typed) && (known || !matches.length)) {
      void check(typed);
      return;
    }
    setResult(null);
    if (typed.length < 2) setNote("Type at least two letters of a name, an email or an order reference.");
    else setNote(matches.length ? "Press Admit next to the right ticket below." : `No ticket matches “${typed}”.`);
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
    if (!video.current || stopScanning.current) return;
    // The camera is allowed only in a document loaded at this address (Permissions-Policy, decision 105):
    // arrived here by a link inside the admin, load the page itself and start the camera then.
    if (!documentLoadedHere()) {
      sessionStorage.setItem(CAMERA_AFTER_LOAD, "1");
      window.location.reload();
      return;
    }
    setScanning(true);
    try {
      stopScanning.current = await startQrScanning(video.current, check);
    } catch (error) {
      setScanning(false);
      const blocked = error instanceof DOMException && error.name === "NotAllowedError";
      setNote(
        blocked
          ? "The camera is blocked: allow it for this site in the browser's settings, or type the code."
          : "The camera could not be started: type the code instead.",
      );
      console.warn("Camera:", error);
    }
  };

  const stopCamera = () => {
    stopScanning.current?.();
    stopScanning.current = null;
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
            <label htmlFor="door-event" className="block text-sm font-semibold">
              Event and session
            </label>
            <select
              id="door-event"
              name="event"
              defaultValue={chosen?.key}
              className="mt-1 block min-h-11 w-full rounded-xl border border-ink/30 bg-white px-3"
            >
              {choices.map((c) => (
                <option key={c.key} value={c.key}>
                  {c.title}
                  {c.startsAt ? `, ${c.startsAt.slice(0, 10)} ${saClock(c.startsAt)}` : ""} ({c.count})
                </option>
              ))}
            </select>
          </div>
          <button type="submit" className="btn-outline min-h-11 px-4 py-1.5">
            Open
          </button>
        </Form>
      )}

      {counts ? (
        <p className="text-2xl font-bold" data-testid="door-counts">
          {counts.checkedIn} of {counts.total} checked in
        </p>
      ) : null}

      <DoorAnswer result={result} note={note} />

      <div className={scanning ? "space-y-3" : "hidden"}>
        <video
          ref={video}
          muted
          playsInline
          aria-label="Camera view: hold the ticket's QR code in front of it"
          className="aspect-[3/4] max-h-[70vh] w-full rounded-3xl bg-ink object-cover sm:aspect-video"
        />
        <button type="button" onClick={stopCamera} className="btn-outline min-h-12 w-full px-6 text-lg">
          Stop camera
        </button>
      </div>

      <Form method="post" onSubmit={onSubmit} className="card space-y-3 p-4">
        <input type="hidden" name="eventId" value={eventId} />
        <label htmlFor="door-code" className="block text-lg font-semibold">
          Ticket code or name
        </label>
        <input
          ref={codeInput}
          id="door-code"
          name="code"
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
          onChange={(event) => setQuery(event.currentTarget.value)}
          aria-describedby="door-code-hint"
          className="block min-h-14 w-full rounded-xl border-2 border-ink/40 bg-white px-3 text-lg"
        />
        <p id="door-code-hint" className="text-sm text-ink-soft">
          The door code under the QR (like ABCD-EFGH, any case), or two letters of a name, email or order reference.
        </p>
        <div className="flex flex-wrap gap-3">
          <button type="submit" disabled={busy} className="btn-primary min-h-12 px-6 text-lg">
            Check in
          </button>
          {cameraReady && !scanning ? (
            <button type="button" onClick={() => void startCamera()} className="btn-outline min-h-12 px-6 text-lg">
              Scan with camera
            </button>
          ) : null}
        </div>
      </Form>

      <DoorMatches matches={matches} eventId={eventId} onAdmit={(code) => void check(code)} />

      <Form method="post" onSubmit={(e) => void onUndo(e)}>
        <input type="hidden" name="intent" value="undo" />
        <button type="submit" className="btn-outline min-h-11 px-4 py-1.5">
          Undo last check-in
        </button>
      </Form>

      <section aria-labelledby="door-sync" className="card space-y-2 p-4 text-sm">
        <h2 id="door-sync" className="font-semibold">
          This device
        </h2>
        <p>{pending === 1 ? "1 offline check-in waiting to sync." : `${pending} offline check-ins waiting to sync.`}</p>
        {listInfo ? <p>{listInfo}</p> : null}
      </section>

      {allConflicts.length ? (
        <section aria-labelledby="door-conflicts" className="card space-y-2 border-2 border-[#8b1a1a] p-4">
          <h2 id="door-conflicts" className="font-semibold">
            Conflicts: admitted on two devices
          </h2>
          <ul className="list-disc pl-5">
            {conflicts.map((c) => (
              <li key={c.id}>
                {c.holderName}: first admitted {c.firstAt ? `at ${saClock(c.firstAt)}` : ""} on{" "}
                {c.firstDevice ?? "another device"}, again at {saClock(c.scannedAt)} on {c.deviceId}
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
  seo({
    title: "Check-in",
    description: "Admit ticket holders at the door.",
    path: "/admin/check-in",
    siteUrl: siteUrlFrom(matches),
    noindex: true,
  });
