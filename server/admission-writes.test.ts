import { describe, expect, it } from "vitest";
import { setupAdmission, type FakeRequest } from "../tests/support/admission";

describe("visitors' writes", () => {
  const write = (id: string): FakeRequest => ({ id, cached: false });

  it("take write slots of their own: pages waiting for a render slot do not wait behind them, nor they behind pages", () => {
    const { loop, log, finish, admission, page } = setupAdmission({
      batchSize: 10,
      slowConcurrency: 1,
      writeConcurrency: 2,
    });
    admission.bulk(page("b1", false));
    admission.bulk(page("b2", false));
    expect(admission.write(write("w1"))).toBe("started");
    expect(admission.write(write("w2"))).toBe("started");
    loop.turn();
    expect(log).toEqual(["slow:b1", "slow:w1", "slow:w2"]);
    expect(admission.slowInFlight()).toBe(1);
    expect(admission.writesInFlight()).toBe(2);
    // A write finishing frees a write slot, not the render slot b2 waits for.
    finish.get("w1")!();
    loop.turn();
    expect(log).toEqual(["slow:b1", "slow:w1", "slow:w2"]);
    finish.get("b1")!();
    loop.turn();
    expect(log).toEqual(["slow:b1", "slow:w1", "slow:w2", "slow:b2"]);
  });

  it("wait in order for a write slot past writeConcurrency, each starting as one finishes", () => {
    const { finish, log, admission } = setupAdmission({ writeConcurrency: 2 });
    for (let n = 1; n <= 5; n++) admission.write(write(`w${n}`));
    expect(log).toEqual(["slow:w1", "slow:w2"]);
    expect(admission.waiting()).toBe(3);
    finish.get("w2")!();
    finish.get("w2")!(); // a second call changes nothing
    expect(log).toEqual(["slow:w1", "slow:w2", "slow:w3"]);
    finish.get("w1")!();
    finish.get("w3")!();
    expect(log).toEqual(["slow:w1", "slow:w2", "slow:w3", "slow:w4", "slow:w5"]);
    expect(admission.writesInFlight()).toBe(2);
    expect(admission.stats).toMatchObject({ writes: 2, writesQueued: 3, peakWaiting: 3 });
  });

  it("answer 503 past maxWaitMs on a timer when no write slot frees (a database that stopped answering)", () => {
    const { loop, log, admission } = setupAdmission({ writeConcurrency: 1, maxWaitMs: 1_000 });
    admission.write(write("w1"));
    loop.advance(400);
    admission.write(write("w2"));
    admission.write(write("w3"));
    loop.advance(999);
    expect(log).toEqual(["slow:w1"]);
    loop.advance(1);
    expect(log).toEqual(["slow:w1", "shed:w2", "shed:w3"]);
    expect(admission.waiting()).toBe(0);
  });

  it("answer 503 at once when the queue is full, and drop one whose visitor left before its turn", () => {
    const { finish, log, admission } = setupAdmission({ writeConcurrency: 1, maxQueued: 2 });
    admission.write(write("w1"));
    const left = write("w2");
    admission.write(left);
    admission.write(write("w3"));
    expect(admission.write(write("w4"))).toBe("shed");
    left.gone = true;
    finish.get("w1")!();
    expect(log).toEqual(["slow:w1", "shed:w4", "slow:w3"]);
    expect(admission.stats.gone).toBe(1);
  });

  it("never hold up the till", () => {
    const { log, admission } = setupAdmission({ writeConcurrency: 1 });
    admission.write(write("w1"));
    admission.write(write("w2"));
    admission.till({ id: "t1", cached: false });
    expect(log).toEqual(["slow:w1", "till:t1"]);
  });
});
