import { data } from "react-router";
import { checkInByCode, syncOfflineScans, undoLastCheckIn } from "~/tickets/check-in.server";
import { checkInConflicts, doorTicketList } from "~/tickets/door-lists.server";
import { doorRequestSchema } from "~/tickets/door";
import type { Route } from "./+types/admin-check-in-data";

const NO_STORE = { "Cache-Control": "no-store" };

/** GET ?event={id}: the ticket list the door keeps to search and admit offline, and conflicts. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const eventId = (url.searchParams.get("event") ?? "").slice(0, 100);
  if (!eventId) throw data({ error: "Choose an event" }, { status: 400, headers: NO_STORE });
  const now = context.clock.now();
  const list = await doorTicketList(context.db, eventId, now);
  return data(
    { ...list, conflicts: await checkInConflicts(context.db, eventId), at: now.toISOString() },
    { headers: NO_STORE },
  );
}

/** POST payload={JSON}: scan one code, undo this device's last admission, or sync queued offline scans. */
export async function action({ request, context }: Route.ActionArgs) {
  // Pages take form posts only (server/body-limits.ts), so the JSON rides in one form field.
  const form = await request.formData().catch(() => null);
  const payload = form?.get("payload");
  let json: unknown = null;
  try {
    json = typeof payload === "string" ? JSON.parse(payload) : null;
  } catch {
    json = null;
  }
  const parsed = doorRequestSchema.safeParse(json);
  if (!parsed.success) return data({ error: "That request could not be read." }, { status: 400, headers: NO_STORE });
  const input = parsed.data;
  const now = context.clock.now();
  if (input.intent === "scan") {
    return data(
      {
        result: await checkInByCode(context.db, {
          code: input.code,
          deviceId: input.deviceId,
          now,
          eventId: input.eventId || undefined,
        }),
      },
      { headers: NO_STORE },
    );
  }
  if (input.intent === "undo") {
    return data({ undone: await undoLastCheckIn(context.db, input.deviceId, now) }, { headers: NO_STORE });
  }
  return data({ synced: await syncOfflineScans(context.db, input, now) }, { headers: NO_STORE });
}
