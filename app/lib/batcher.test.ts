import { describe, expect, it } from "vitest";
import { createBatcher } from "./batcher";

describe("createBatcher", () => {
  it("writes items added together in one batch and settles each caller after the write", async () => {
    const writes: number[][] = [];
    const batcher = createBatcher<number>({ write: async (items) => void writes.push(items), maxWaitMs: 5 });
    const settled: number[] = [];
    await Promise.all([1, 2, 3].map((n) => batcher.add(n).then(() => settled.push(n))));
    expect(writes).toEqual([[1, 2, 3]]);
    expect(settled.sort()).toEqual([1, 2, 3]);
  });

  it("splits at maxBatch and keeps order", async () => {
    const writes: number[][] = [];
    const batcher = createBatcher<number>({ write: async (items) => void writes.push(items), maxBatch: 2, maxWaitMs: 50 });
    await Promise.all([1, 2, 3, 4, 5].map((n) => batcher.add(n)));
    expect(writes.flat()).toEqual([1, 2, 3, 4, 5]);
    expect(writes.every((w) => w.length <= 2)).toBe(true);
  });

  it("rejects every caller of a failed write, and later batches still go through", async () => {
    let fail = true;
    const batcher = createBatcher<number>({
      write: async () => {
        if (fail) throw new Error("database down");
      },
    });
    const results = await Promise.allSettled([batcher.add(1), batcher.add(2)]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected"]);
    fail = false;
    await expect(batcher.add(3)).resolves.toBeUndefined();
  });

  it("flush writes what is waiting", async () => {
    const writes: number[][] = [];
    const batcher = createBatcher<number>({ write: async (items) => void writes.push(items), maxWaitMs: 10_000 });
    const added = batcher.add(7);
    await batcher.flush();
    await added;
    expect(writes).toEqual([[7]]);
  });
});
