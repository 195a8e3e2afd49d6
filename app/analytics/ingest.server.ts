import { sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { createBatcher, type Batcher } from "~/lib/batcher";
import type { AnalyticsEventInput } from "./event-schema";

/** Events one analytics session may send per minute (per app instance); more are refused with 429. */
export const ANALYTICS_EVENTS_PER_SESSION_PER_MINUTE = 60;
/**
 * Events one client address may send per minute (per app instance), whatever session ids it makes
 * up: enough for a school or an office behind one address (issue 23, decision 079).
 */
export const ANALYTICS_EVENTS_PER_ADDRESS_PER_MINUTE = 300;
/** Sessions remembered by the cap at most; beyond that, finished minutes are forgotten first. */
const MAX_TRACKED_SESSIONS = 50_000;

/**
 * A per-minute cap per key (a session id, or a client address), kept in this instance's memory: a
 * fixed one-minute window per key.
 * A database counter would cost a second write per event on the hottest endpoint (issue 6 wants
 * 3,000 events/s); with N instances behind a balancer a session can at worst send N times the cap,
 * which is still a cap. See docs/decisions/053-analytics-cap-in-memory.md.
 */
export class SessionEventCap {
  private readonly counts = new Map<string, { minute: number; count: number }>();

  constructor(private readonly perMinute = ANALYTICS_EVENTS_PER_SESSION_PER_MINUTE) {}

  /** Counts one event; false when the session is over the cap for this minute. */
  allow(sessionId: string, now: Date): boolean {
    const minute = Math.floor(now.getTime() / 60_000);
    const entry = this.counts.get(sessionId);
    if (!entry || entry.minute !== minute) {
      if (!entry && this.counts.size >= MAX_TRACKED_SESSIONS) this.forgetBefore(minute);
      this.counts.set(sessionId, { minute, count: 1 });
      return true;
    }
    entry.count++;
    return entry.count <= this.perMinute;
  }

  private forgetBefore(minute: number) {
    for (const [id, entry] of this.counts) if (entry.minute < minute) this.counts.delete(id);
    // Every remembered session is active this minute: forgetting them all only loosens the cap briefly.
    if (this.counts.size >= MAX_TRACKED_SESSIONS) this.counts.clear();
  }
}

export const sessionEventCap = new SessionEventCap();
/** The same counter keyed by client address (app/lib/client-address.server.ts), checked first. */
export const addressEventBudget = new SessionEventCap(ANALYTICS_EVENTS_PER_ADDRESS_PER_MINUTE);

interface TimedEvent {
  event: AnalyticsEventInput;
  now: Date;
}

/** Every database gets its own group-commit queue (tests run several databases in one process). */
const queues = new WeakMap<Database, Batcher<TimedEvent>>();

/**
 * Stores one event, dated by the app's clock; no IP address, no user agent. Events that arrive while
 * an INSERT is running share the next multi-row INSERT (group commit), and the promise settles only
 * once the INSERT holding the event has committed: nothing is acknowledged before it is stored, yet
 * one write serves a crowd.
 * See docs/decisions/062-analytics-group-commit.md.
 */
export function recordAnalyticsEvent(db: Database, event: AnalyticsEventInput, now: Date): Promise<void> {
  let queue = queues.get(db);
  if (!queue) {
    queue = createBatcher<TimedEvent>({ write: (items) => insertEvents(db, items), maxBatch: 500 });
    queues.set(db, queue);
  }
  return queue.add({ event, now });
}

async function insertEvents(db: Database, items: TimedEvent[]): Promise<void> {
  const rows = items.map(({ event, now }) => {
    const metadata = event.metadata ? JSON.stringify(event.metadata) : null;
    return sql`(${event.sessionId}, ${event.eventType}, ${event.pagePath}, ${event.itemName}, ${event.referrer},
                ${metadata}::jsonb, ${now.toISOString()})`;
  });
  await db.execute(sql`
    insert into analytics_events (session_id, event_type, page_path, item_name, referrer, metadata, created_at)
    values ${sql.join(rows, sql`, `)}`);
}

export function rowsOf<T = Record<string, unknown>>(result: unknown): T[] {
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}
