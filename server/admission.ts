import type { ServerResponse } from "node:http";
import { setSecurityHeaders, type HeaderTemplate } from "./page-cache";
import { Queue } from "./queue";

export { classifyRequest, type RequestClass } from "./request-class";

/**
 * Till-first admission (issue 22, decision 091). Node runs every request's callbacks on one thread,
 * one event-loop turn at a time: in a spike, one turn handles every page request that arrived since
 * the last, and a checkout's database answer waits behind all of them, once per round trip. So when
 * the server is saturated, anonymous reads ("bulk") wait in a queue and start at most `batchSize` per
 * turn (released from setImmediate, after the turn's I/O), and at most `slowConcurrency` of them at
 * once go the whole way through Express (renders, database reads); the till (checkout posts, payment
 * pages and returns, webhooks, the owner's admin, the health check) never waits in it.
 *
 * Saturation is measured by counting, which costs nothing and needs no timer: more than `batchSize`
 * bulk requests started within one turn, or `slowConcurrency` bulk requests already on the slow path.
 * Below that every request starts at once, as before.
 *
 * While a till request or a visitor's write is in progress, the turn's budget is `busyBatchSize`,
 * growing with the queue back to `batchSize` (decision 102). Each of those requests waits on the
 * database several times, and each answer is handled only once the turn's bulk work is done: in the
 * soak's crowd of 100 on two cores, shorter turns made a checkout's requests four times quicker at the
 * median, for a few tens of milliseconds more on a page. A spike's long queue keeps full batches.
 */
/** How admission waits: the real event loop, or a fake one in tests. */
export interface Scheduler {
  /** Runs `fn` once the current turn's I/O callbacks have run (setImmediate). */
  defer(fn: () => void): void;
  /** Runs `fn` after `ms`; returns a function that cancels it. */
  after(ms: number, fn: () => void): () => void;
  now(): number;
}

export const eventLoopScheduler: Scheduler = {
  defer: (fn) => void setImmediate(fn),
  after: (ms, fn) => {
    const timer = setTimeout(fn, ms);
    timer.unref();
    return () => clearTimeout(timer);
  },
  now: () => performance.now(),
};

export interface AdmissionOptions {
  /** Bulk requests started per event-loop turn; beyond it they wait for the next turn. */
  batchSize?: number;
  /** The same while a till request or a visitor's write is in progress (at most `batchSize`). */
  busyBatchSize?: number;
  /** Bulk requests on the slow path (Express) at once; beyond it they wait for one to finish. */
  slowConcurrency?: number;
  /**
   * Visitors' writes (contact messages, members' forms) in progress at once. They spend their time
   * waiting on the database, so holding one of the render slots left pages waiting behind them; their
   * own bound still keeps a flood of posts from queuing unbounded work ahead of the till's queries.
   */
  writeConcurrency?: number;
  /** Bulk requests waiting; one more is answered 503 at once. */
  maxQueued?: number;
  /** A bulk request that has waited this long is answered 503. */
  maxWaitMs?: number;
  /** The Retry-After of those 503s. */
  retryAfterSeconds?: number;
  scheduler?: Scheduler;
}

/** While the till is busy, bulk starts per turn grow to a 1/BUSY_QUEUE_TURNS share of those waiting. */
const BUSY_QUEUE_TURNS = 8;

export const DEFAULT_ADMISSION = {
  batchSize: 32,
  busyBatchSize: 8,
  slowConcurrency: 2,
  writeConcurrency: 64,
  maxQueued: 4_000,
  maxWaitMs: 10_000,
  retryAfterSeconds: 5,
} satisfies Omit<Required<AdmissionOptions>, "scheduler">;

/** What admission does with one bulk request (in the server, its ServerResponse). */
export interface BulkHandler<T> {
  /** Answers from memory at once (page cache, analytics fast path); true when it did. */
  fast(request: T): boolean;
  /** The whole way (Express); `done` is called once when its response is over. */
  slow(request: T, done: () => void): void;
  /**
   * False for requests that cost no rendering or database work on the slow path (static files): they
   * take no slot, so a slow client downloading a large file cannot hold one.
   */
  needsSlot?(request: T): boolean;
  /** Answers 503 with Retry-After: it waited too long, or too many are waiting. */
  shed(request: T): void;
  /** The client went away while it waited: nothing left to do. */
  gone(request: T): boolean;
}

interface Waiting<T> {
  request: T;
  since: number;
}

export interface AdmissionStats {
  /** Till requests, started at once. */
  till: number;
  /** Bulk requests started in the turn they arrived in. */
  immediate: number;
  /** Bulk requests that waited for a later turn. */
  queued: number;
  /** Bulk requests that missed the fast path and waited for a slow-path slot. */
  waitedForSlot: number;
  /** Visitors' writes started at once. */
  writes: number;
  /** Visitors' writes that waited for a write slot. */
  writesQueued: number;
  /** Answered 503 (queue full or waited too long). */
  shed: number;
  /** Dropped from the queue because the client had gone. */
  gone: number;
  /** The most bulk requests waiting at once. */
  peakWaiting: number;
}

export type Admission<T> = ReturnType<typeof createAdmission<T>>;

export function createAdmission<T>(handler: BulkHandler<T>, options: AdmissionOptions = {}) {
  const { batchSize, busyBatchSize, slowConcurrency, writeConcurrency, maxQueued, maxWaitMs } = {
    ...DEFAULT_ADMISSION,
    ...options,
  };
  const scheduler = options.scheduler ?? eventLoopScheduler;
  /** Arrived, not started: they start in order, `batchSize` per turn. */
  const arrived = new Queue<Waiting<T>>();
  /** Started, missed the fast path, and found every slow-path slot taken. */
  const forSlot = new Queue<Waiting<T>>();
  const stats: AdmissionStats = {
    till: 0,
    immediate: 0,
    queued: 0,
    waitedForSlot: 0,
    writes: 0,
    writesQueued: 0,
    shed: 0,
    gone: 0,
    peakWaiting: 0,
  };
  let startedThisTurn = 0;
  let slowInFlight = 0;
  let tillInFlight = 0;
  let drainScheduled = false;
  let cancelExpiry: (() => void) | undefined;

  /** Visitors' writes waiting for a write slot, in order of arrival. */
  const writeQueue = new Queue<Waiting<T>>();
  let writesInFlight = 0;
  let cancelWriteExpiry: (() => void) | undefined;

  const waiting = () => arrived.length + forSlot.length + writeQueue.length;
  /**
   * This turn's budget of bulk starts. While the till or a visitor's write waits on the database it is
   * smaller, so that their answers wait behind less; but it grows with the queue (an eighth of those
   * waiting, up to `batchSize`), so that a crowd of readers is still served at full pace.
   */
  const budget = () => {
    if (tillInFlight + writesInFlight === 0) return batchSize;
    return Math.min(
      batchSize,
      Math.max(busyBatchSize, Math.ceil((arrived.length + forSlot.length) / BUSY_QUEUE_TURNS)),
    );
  };

  function scheduleDrain() {
    if (drainScheduled) return;
    drainScheduled = true;
    scheduler.defer(drain);
  }

  /** The whole way (Express); `finished` runs once, when the response is over or the handler threw. */
  function runToEnd(request: T, finished: () => void) {
    let over = false;
    const done = () => {
      if (over) return;
      over = true;
      finished();
    };
    try {
      handler.slow(request, done);
    } catch (error) {
      done();
      throw error;
    }
  }

  function runSlow(request: T) {
    slowInFlight++;
    runToEnd(request, () => {
      slowInFlight--;
      if (arrived.length + forSlot.length) scheduleDrain();
    });
  }

  /** A request's first try: memory, else a free slow-path slot, else wait for one. */
  function start(item: Waiting<T>) {
    if (handler.fast(item.request)) return;
    if (handler.needsSlot?.(item.request) === false) return handler.slow(item.request, () => {});
    if (slowInFlight < slowConcurrency) return runSlow(item.request);
    if (waiting() >= maxQueued) return shed(item);
    stats.waitedForSlot++;
    forSlot.push(item);
    stats.peakWaiting = Math.max(stats.peakWaiting, waiting());
  }

  function shed(item: Waiting<T>) {
    if (handler.gone(item.request)) {
      stats.gone++;
      return;
    }
    stats.shed++;
    handler.shed(item.request);
  }

  function shedExpired(queue: Queue<Waiting<T>>, now: number) {
    // Each queue is in order of arrival, so the expired ones are at its head.
    for (let head = queue.peek(); head && now - head.since >= maxWaitMs; head = queue.peek()) shed(queue.shift()!);
  }

  /** Once per turn while anything waits: the turn's budget, then the slot-waiters, then the arrivals. */
  function drain() {
    drainScheduled = false;
    startedThisTurn = 0;
    const limit = budget();
    const now = scheduler.now();
    shedExpired(forSlot, now);
    shedExpired(arrived, now);

    // A slot may have come free, and a render may have refreshed the pages those waiting asked for:
    // each tries memory again first, then a free slot; the rest keep their place at the head. A miss
    // costs a lookup, not a response, so it does not count against the turn's budget (only the scan
    // is bounded): a page still stale must not hold back arrivals for a page that is fresh.
    const stillWaiting: Waiting<T>[] = [];
    for (let scanned = 0; forSlot.length && startedThisTurn < limit && scanned < limit * 4;) {
      const item = forSlot.shift()!;
      if (handler.gone(item.request)) {
        stats.gone++;
        continue;
      }
      scanned++;
      if (handler.fast(item.request)) {
        startedThisTurn++;
      } else if (slowInFlight < slowConcurrency) {
        startedThisTurn++;
        runSlow(item.request);
      } else {
        stillWaiting.push(item);
      }
    }
    forSlot.putBack(stillWaiting);

    while (arrived.length && startedThisTurn < limit) {
      const item = arrived.shift()!;
      if (handler.gone(item.request)) {
        stats.gone++;
        continue;
      }
      startedThisTurn++;
      start(item);
    }

    cancelExpiry?.();
    cancelExpiry = undefined;
    if (arrived.length || (forSlot.length && slowInFlight < slowConcurrency)) {
      scheduleDrain();
    } else if (forSlot.length) {
      // Waiting for a slot: a finishing request schedules the next drain; this one sheds the oldest
      // if no slot frees up in time (a render stuck on an unreachable database).
      const oldest = forSlot.peek()!;
      cancelExpiry = scheduler.after(Math.max(0, maxWaitMs - (now - oldest.since)), () => {
        cancelExpiry = undefined;
        scheduleDrain();
      });
    }
  }

  /** A bulk request: started now below saturation, otherwise queued (or answered 503 when the queue is full). */
  function bulk(request: T): "started" | "queued" | "shed" {
    if (arrived.length === 0 && startedThisTurn < budget()) {
      startedThisTurn++;
      stats.immediate++;
      // The drain at the end of this turn starts the next turn's budget.
      scheduleDrain();
      start({ request, since: scheduler.now() });
      return "started";
    }
    if (waiting() >= maxQueued) {
      stats.shed++;
      handler.shed(request);
      return "shed";
    }
    arrived.push({ request, since: scheduler.now() });
    stats.queued++;
    stats.peakWaiting = Math.max(stats.peakWaiting, waiting());
    scheduleDrain();
    return "queued";
  }

  function runWrite(request: T) {
    writesInFlight++;
    runToEnd(request, () => {
      writesInFlight--;
      startWaitingWrites();
    });
  }

  /** Starts waiting writes while slots are free; sheds those that waited too long, even with none free. */
  function startWaitingWrites() {
    cancelWriteExpiry?.();
    cancelWriteExpiry = undefined;
    shedExpired(writeQueue, scheduler.now());
    while (writeQueue.length && writesInFlight < writeConcurrency) {
      const item = writeQueue.shift()!;
      if (handler.gone(item.request)) stats.gone++;
      else runWrite(item.request);
    }
    const oldest = writeQueue.peek();
    if (oldest) {
      cancelWriteExpiry = scheduler.after(Math.max(0, maxWaitMs - (scheduler.now() - oldest.since)), () => {
        cancelWriteExpiry = undefined;
        startWaitingWrites();
      });
    }
  }

  /** A visitor's write: started now while a write slot is free, else queued in order (or 503 past the bounds). */
  function write(request: T): "started" | "queued" | "shed" {
    if (writesInFlight < writeConcurrency && writeQueue.length === 0) {
      stats.writes++;
      runWrite(request);
      return "started";
    }
    if (waiting() >= maxQueued) {
      stats.shed++;
      handler.shed(request);
      return "shed";
    }
    stats.writesQueued++;
    writeQueue.push({ request, since: scheduler.now() });
    stats.peakWaiting = Math.max(stats.peakWaiting, waiting());
    if (!cancelWriteExpiry) startWaitingWrites();
    return "queued";
  }

  /** A till request: started at once whatever waits, on the slow path but outside its slots. */
  function till(request: T): "started" {
    stats.till++;
    tillInFlight++;
    runToEnd(request, () => tillInFlight--);
    return "started";
  }

  return {
    bulk,
    write,
    till,
    stats,
    /** Bulk requests waiting now (to start, or for a slow-path slot). */
    waiting,
    /** Bulk requests on the slow path now. */
    slowInFlight: () => slowInFlight,
    /** Visitors' writes in progress now. */
    writesInFlight: () => writesInFlight,
    /** Till requests in progress now. */
    tillInFlight: () => tillInFlight,
  };
}

const BUSY_BODY = "Service Unavailable: the shop is very busy. Please try again in a few seconds.\n";

/** The 503 a shed request gets: the same security headers as every response, never stored, with Retry-After. */
export function sendBusy(res: ServerResponse, headers: HeaderTemplate, retryAfterSeconds: number): void {
  if (res.headersSent || res.destroyed) return;
  setSecurityHeaders(res, headers);
  res.setHeader("Cache-Control", "no-store");
  res.setHeader("Retry-After", String(retryAfterSeconds));
  res.setHeader("Content-Type", "text/plain; charset=utf-8");
  res.setHeader("Content-Length", Buffer.byteLength(BUSY_BODY));
  res.statusCode = 503;
  res.end(res.req?.method === "HEAD" ? undefined : BUSY_BODY);
}
