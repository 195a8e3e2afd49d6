import { describe, expect, it } from "vitest";
import { createAdmission } from "./admission";
import { fakeLoop, setupAdmission, type FakeRequest } from "../tests/support/admission";

// On the fake event loop of tests/support/admission.ts: no real time is involved.

describe("admission below saturation", () => {
  it("starts every request in the turn it arrives, with nothing queued", () => {
    const { loop, log, admission, page } = setupAdmission();
    expect(admission.bulk(page("b1"))).toBe("started");
    expect(admission.bulk(page("b2"))).toBe("started");
    expect(log).toEqual(["fast:b1", "fast:b2"]);
    expect(admission.waiting()).toBe(0);
    // A new turn has a new budget.
    loop.turn();
    expect(admission.bulk(page("b3"))).toBe("started");
    expect(admission.stats).toMatchObject({ immediate: 3, queued: 0, shed: 0 });
  });
});

describe("admission when saturated", () => {
  it("queues bulk requests past the turn's budget and starts them in order, a batch per turn", () => {
    const { loop, log, admission, page } = setupAdmission();
    for (let n = 1; n <= 7; n++) admission.bulk(page(`b${n}`));
    expect(log).toEqual(["fast:b1", "fast:b2"]);
    expect(admission.waiting()).toBe(5);
    loop.turn();
    expect(log).toEqual(["fast:b1", "fast:b2", "fast:b3", "fast:b4"]);
    // Arrivals while others wait join the end of the queue, even with budget left.
    loop.turn();
    admission.bulk(page("b8"));
    loop.turn();
    loop.turn();
    expect(log.map((entry) => entry.slice(5))).toEqual(["b1", "b2", "b3", "b4", "b5", "b6", "b7", "b8"]);
    expect(admission.waiting()).toBe(0);
    expect(admission.stats).toMatchObject({ immediate: 2, queued: 6, peakWaiting: 5 });
  });

  it("starts a till request at once, ahead of every bulk request waiting", () => {
    const { loop, log, admission, page } = setupAdmission();
    for (let n = 1; n <= 6; n++) admission.bulk(page(`b${n}`));
    expect(admission.till({ id: "t1", cached: false })).toBe("started");
    while (loop.pendingTurns()) loop.turn();
    expect(log).toEqual(["fast:b1", "fast:b2", "till:t1", "fast:b3", "fast:b4", "fast:b5", "fast:b6"]);
    expect(admission.stats.till).toBe(1);
  });

  it("starts fewer bulk requests per turn while a till request or a visitor's write is in progress", () => {
    const { loop, log, finish, admission, page } = setupAdmission({ batchSize: 4, busyBatchSize: 2 });
    const bulkStarted = () => log.filter((entry) => entry.startsWith("fast:")).length;
    admission.till({ id: "t1", cached: false });
    expect(admission.tillInFlight()).toBe(1);
    for (let n = 1; n <= 12; n++) admission.bulk(page(`b${n}`));
    expect(bulkStarted()).toBe(2);
    loop.turn();
    expect(bulkStarted()).toBe(4);
    // The till's response is over: the whole budget again, and a second end changes nothing.
    finish.get("t1")!();
    finish.get("t1")!();
    expect(admission.tillInFlight()).toBe(0);
    loop.turn();
    expect(bulkStarted()).toBe(8);
    // A visitor's write in progress counts as the till does.
    admission.write({ id: "w1", cached: false });
    loop.turn();
    expect(bulkStarted()).toBe(10);
    finish.get("w1")!();
    loop.turn();
    expect(bulkStarted()).toBe(12);
    expect(admission.waiting()).toBe(0);
  });

  it("while the till is busy, starts more per turn as the queue grows (an eighth of those waiting), up to batchSize", () => {
    const { loop, log, admission, page } = setupAdmission({ batchSize: 32, busyBatchSize: 4, maxQueued: 1_000 });
    const bulkStarted = () => log.filter((entry) => entry.startsWith("fast:")).length;
    admission.till({ id: "t1", cached: false });
    for (let n = 1; n <= 400; n++) admission.bulk(page(`b${n}`));
    expect(bulkStarted()).toBe(4);
    const perTurn: number[] = [];
    while (admission.waiting()) {
      const [waiting, before] = [admission.waiting(), bulkStarted()];
      loop.turn();
      perTurn.push(bulkStarted() - before);
      expect(bulkStarted() - before).toBe(Math.min(waiting, 32, Math.max(4, Math.ceil(waiting / 8))));
    }
    // A crowd is served a full batch per turn; the tail of the queue a few per turn.
    expect(perTurn.slice(0, 4)).toEqual([32, 32, 32, 32]);
    expect(perTurn.at(-2)).toBe(4);
    expect(bulkStarted()).toBe(400);
  });

  it("lets no more than slowConcurrency bulk requests through the slow path; a till request needs no slot", () => {
    const { loop, log, finish, admission, page } = setupAdmission({ batchSize: 10 });
    for (let n = 1; n <= 4; n++) admission.bulk(page(`b${n}`, false));
    expect(log).toEqual(["slow:b1", "slow:b2"]);
    expect(admission.slowInFlight()).toBe(2);
    admission.till({ id: "t1", cached: false });
    expect(log).toEqual(["slow:b1", "slow:b2", "till:t1"]);
    expect(admission.slowInFlight()).toBe(2);
    // Nothing frees a slot: the waiting ones stay waiting.
    loop.turn();
    expect(admission.waiting()).toBe(2);
    finish.get("b1")!();
    loop.turn();
    expect(log.slice(3)).toEqual(["slow:b3"]);
    finish.get("b2")!();
    finish.get("b2")!(); // a second call changes nothing
    loop.turn();
    expect(log.slice(4)).toEqual(["slow:b4"]);
    expect(admission.slowInFlight()).toBe(2);
    expect(admission.stats.waitedForSlot).toBe(2);
  });

  it("serves those waiting for a slot from memory once a render has refreshed their page, without a slot", () => {
    const { loop, log, finish, admission, page } = setupAdmission({ batchSize: 10, slowConcurrency: 1 });
    const stale = [1, 2, 3, 4].map((n) => page(`b${n}`, false));
    for (const request of stale) admission.bulk(request);
    expect(log).toEqual(["slow:b1"]);
    // The render stores the page: the others now find it in memory.
    for (const request of stale) request.cached = true;
    finish.get("b1")!();
    loop.turn();
    expect(log).toEqual(["slow:b1", "fast:b2", "fast:b3", "fast:b4"]);
    expect(admission.slowInFlight()).toBe(0);
  });

  it("serves a waiter whose page was refreshed while the one ahead of it still waits for a slot", () => {
    const { loop, log, finish, admission, page } = setupAdmission({ batchSize: 10, slowConcurrency: 1 });
    const waiters = [page("b1", false), page("b2", false), page("b3", false), page("b4", false)];
    for (const request of waiters) admission.bulk(request);
    expect(log).toEqual(["slow:b1"]);
    // Another page was refreshed (b3's), b2's was not: b3 is served, b2 and b4 keep their places.
    waiters[2]!.cached = true;
    loop.turn();
    expect(log).toEqual(["slow:b1", "fast:b3"]);
    expect(admission.waiting()).toBe(2);
    finish.get("b1")!();
    loop.turn();
    expect(log).toEqual(["slow:b1", "fast:b3", "slow:b2"]);
    finish.get("b2")!();
    loop.turn();
    expect(log).toEqual(["slow:b1", "fast:b3", "slow:b2", "slow:b4"]);
  });

  it("does not let requests for a page still stale hold back arrivals for a page that is fresh", () => {
    const { loop, log, admission, page } = setupAdmission({ batchSize: 2, slowConcurrency: 1 });
    for (const id of ["s1", "s2", "s3", "s4"]) admission.bulk(page(id, false));
    admission.bulk(page("f1"));
    admission.bulk(page("f2"));
    loop.turn(); // s2 waits for the slot; s3 and s4 start, miss, and wait for it too
    expect(log).toEqual(["slow:s1"]);
    loop.turn(); // the three misses cost no budget: f1 and f2 are served
    expect(log).toEqual(["slow:s1", "fast:f1", "fast:f2"]);
    expect(admission.waiting()).toBe(3);
  });

  it("keeps serving cached pages while every slow-path slot is taken", () => {
    const { loop, log, admission, page } = setupAdmission({ batchSize: 10, slowConcurrency: 1 });
    admission.bulk(page("b1", false));
    admission.bulk(page("b2", false));
    loop.turn();
    admission.bulk(page("b3"));
    expect(log).toEqual(["slow:b1", "fast:b3"]);
    expect(admission.waiting()).toBe(1);
  });

  it("gives no slot to a request that needs none (a static file), so it never waits for one", () => {
    const loop = fakeLoop();
    const log: string[] = [];
    const admission = createAdmission<FakeRequest>(
      {
        fast: () => false,
        slow: (r) => void log.push(`slow:${r.id}`),
        needsSlot: (r) => !r.id.startsWith("file"),
        shed: (r) => void log.push(`shed:${r.id}`),
        gone: () => false,
      },
      { batchSize: 10, slowConcurrency: 1, scheduler: loop.scheduler },
    );
    for (const id of ["b1", "b2", "file1", "file2"]) admission.bulk({ id, cached: false });
    expect(log).toEqual(["slow:b1", "slow:file1", "slow:file2"]);
    expect(admission.slowInFlight()).toBe(1);
    expect(admission.waiting()).toBe(1);
  });

  it("answers 503 at once when the queue is full", () => {
    const { log, admission, page } = setupAdmission({ maxQueued: 3 });
    for (let n = 1; n <= 6; n++) admission.bulk(page(`b${n}`));
    expect(log).toEqual(["fast:b1", "fast:b2", "shed:b6"]);
    expect(admission.stats.shed).toBe(1);
  });

  it("counts those waiting for a slot against the queue's bound", () => {
    const { loop, log, admission, page } = setupAdmission({ batchSize: 1, slowConcurrency: 1, maxQueued: 2 });
    // One arrival per turn: each starts at once, misses the fast path and finds the slot taken.
    for (let n = 1; n <= 4; n++) {
      admission.bulk(page(`b${n}`, false));
      loop.turn();
    }
    expect(log).toEqual(["slow:b1", "shed:b4"]);
    expect(admission.waiting()).toBe(2);
  });

  it("answers 503 to a request that waited longer than maxWaitMs, the oldest first", () => {
    const { loop, log, admission, page } = setupAdmission({ batchSize: 1, maxWaitMs: 1_000 });
    admission.bulk(page("b1"));
    admission.bulk(page("b2"));
    loop.advance(500);
    admission.bulk(page("b3"));
    loop.advance(600);
    // b2 has waited 1,100 ms, b3 600 ms.
    loop.turn();
    expect(log).toEqual(["fast:b1", "shed:b2", "fast:b3"]);
  });

  it("answers 503 to a request still waiting for a slot after maxWaitMs, on a timer if no slot frees", () => {
    const { loop, log, admission, page } = setupAdmission({ batchSize: 10, slowConcurrency: 1, maxWaitMs: 1_000 });
    admission.bulk(page("b1", false));
    admission.bulk(page("b2", false));
    loop.turn();
    expect(loop.pendingTurns()).toBe(0);
    loop.advance(999);
    loop.turn();
    expect(log).toEqual(["slow:b1"]);
    loop.advance(1);
    loop.turn();
    expect(log).toEqual(["slow:b1", "shed:b2"]);
    expect(admission.waiting()).toBe(0);
  });

  it("drops a waiting request whose client went away, without answering or counting it against the budget", () => {
    const { loop, log, admission, page } = setupAdmission();
    for (let n = 1; n <= 5; n++) admission.bulk(page(`b${n}`));
    const left = [page("b6"), page("b7")];
    for (const request of left) {
      request.gone = true;
      admission.bulk(request);
    }
    admission.bulk(page("b8"));
    loop.turn();
    loop.turn();
    expect(log).toEqual(["fast:b1", "fast:b2", "fast:b3", "fast:b4", "fast:b5", "fast:b8"]);
    expect(admission.stats.gone).toBe(2);
  });
});
