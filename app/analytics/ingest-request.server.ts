import { isbot } from "isbot";
import type { Database } from "~/db/client.server";
import { isDatabaseUnavailable } from "~/db/errors.server";
import { analyticsEventSchema } from "./event-schema";
import { isUntrackedPath } from "./untracked-paths";
import { clientAddressKey } from "~/lib/client-address.server";
import { addressEventBudget, recordAnalyticsEvent, sessionEventCap } from "./ingest.server";

/** What POST /api/analytics answers: 204 with no body, or a status with a JSON error. */
export interface AnalyticsReply {
  status: 204 | 400 | 413 | 429 | 503;
  body?: { error: string; problems?: string[] };
}

export interface AnalyticsPost {
  db: Database;
  now: Date;
  /** The raw body, or null when it was over the size limit. */
  body: Uint8Array | null;
  userAgent: string;
  /** The client's address as the trusted proxy chain gives it (never stored). */
  clientAddress: string;
  /** Whether a signed-in admin sent it (their own browsing is not counted). */
  isAdmin: () => Promise<boolean>;
}

/**
 * One analytics event from app/analytics/track.ts, from raw bytes to stored row. Shared by the React
 * Router route (dev, and requests with cookies) and the server's fast path before Express
 * (server/analytics-fast-path.ts), so both answer exactly alike. sendBeacon sends a Blob, so the
 * content type varies: the body is parsed as JSON whatever it says.
 */
export async function ingestAnalyticsPost({
  db,
  now,
  body,
  userAgent,
  clientAddress,
  isAdmin,
}: AnalyticsPost): Promise<AnalyticsReply> {
  if (body === null) return { status: 413, body: { error: "Event too large" } };
  let event: unknown;
  try {
    event = JSON.parse(new TextDecoder().decode(body));
  } catch {
    return { status: 400, body: { error: "Body must be a JSON object" } };
  }
  const parsed = analyticsEventSchema.safeParse(event);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join(".") || "body"}: ${issue.message}`);
    return { status: 400, body: { error: "Invalid analytics event", problems } };
  }
  // Dropped with the 204 a stored event gets: an error would only make a client try again.
  if (isUntrackedPath(parsed.data.pagePath)) return { status: 204 };
  if (isbot(userAgent)) return { status: 204 };
  if (await isAdmin()) return { status: 204 };
  // Session ids are the client's to choose, so the address budget comes first. It counts real
  // minutes, not the app clock: a clock pinned for a demo (APP_NOW) would make it a lifetime budget.
  if (!addressEventBudget.allow(clientAddressKey(clientAddress), new Date())) {
    return { status: 429, body: { error: "Too many events from this address; try again in a minute" } };
  }
  if (!sessionEventCap.allow(parsed.data.sessionId, now)) {
    return { status: 429, body: { error: "Too many events from this session; try again in a minute" } };
  }
  try {
    await recordAnalyticsEvent(db, parsed.data, now);
  } catch (error) {
    if (!isDatabaseUnavailable(error)) throw error;
    return { status: 503, body: { error: "Analytics is unavailable right now; the event was not stored" } };
  }
  return { status: 204 };
}
