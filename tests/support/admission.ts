import { createAdmission, type AdmissionOptions, type Scheduler } from "../../server/admission";

// The admission logic on a fake event loop: `turn()` runs what was deferred to the end of the current
// turn (setImmediate), `advance(ms)` moves the clock and fires due timers. No real time is involved.

export function fakeLoop() {
  let now = 0;
  let deferred: (() => void)[] = [];
  let timers: { at: number; fn: () => void; cancelled: boolean }[] = [];
  const scheduler: Scheduler = {
    defer: (fn) => void deferred.push(fn),
    after: (ms, fn) => {
      const timer = { at: now + ms, fn, cancelled: false };
      timers.push(timer);
      return () => void (timer.cancelled = true);
    },
    now: () => now,
  };
  return {
    scheduler,
    /** Ends the current turn: runs everything deferred to it (not what that defers in turn). */
    turn() {
      const due = deferred;
      deferred = [];
      for (const fn of due) fn();
    },
    advance(ms: number) {
      now += ms;
      const due = timers.filter((t) => !t.cancelled && t.at <= now);
      timers = timers.filter((t) => !due.includes(t));
      for (const t of due) t.fn();
    },
    pendingTurns: () => deferred.length,
  };
}

export interface FakeRequest {
  id: string;
  /** Served from memory by the fast path. */
  cached: boolean;
  gone?: boolean;
}

/** An admission whose handlers log what they do, on a fake loop, with small limits to reach saturation. */
export function setupAdmission(options: AdmissionOptions = {}) {
  const loop = fakeLoop();
  /** What happened, in order: "fast:b1", "slow:b2", "till:t1", "shed:b3". */
  const log: string[] = [];
  const finish = new Map<string, () => void>();
  const admission = createAdmission<FakeRequest>(
    {
      fast: (r) => {
        if (r.cached) log.push(`fast:${r.id}`);
        return r.cached;
      },
      slow: (r, done) => {
        log.push(`${r.id.startsWith("t") ? "till" : "slow"}:${r.id}`);
        finish.set(r.id, done);
      },
      shed: (r) => void log.push(`shed:${r.id}`),
      gone: (r) => Boolean(r.gone),
    },
    { batchSize: 2, slowConcurrency: 2, maxQueued: 100, maxWaitMs: 10_000, ...options, scheduler: loop.scheduler },
  );
  const page = (id: string, cached = true): FakeRequest => ({ id, cached });
  return { loop, log, finish, admission, page };
}
