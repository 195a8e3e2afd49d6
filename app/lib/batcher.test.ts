import { describe, expect, it } from "vitest";
import { createBatcher } from "./batcher";

describe("createBatcher", () => {
  it("writes items added together in one batch and settles each caller after the write", async () => {
    const writes: number[][] = [];
    const batcher = createBatcher<number>({ write: async (items) => void writes.push(items) });
    const settled: number[] = [];
    await Promise.all([1, 2, 3].map((n) => batcher.add(n).then(() => settled.push(n))));
    expect(writes).toEqual([[1, 2, 3]]);
    expect(settled.sort()).toEqual([1, 2, 3]);
  });

  it("splits at maxBatch and keeps order", async () => {
    const writes: number[][] = [];
    const batcher = createBatcher<number>({ write: async (items) => void writes.push(items), maxBatch: 2 });
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

  it("writes a lone item without waiting, and gathers everything added during a write into the next one", async () => {
    const writes: number[][] = [];
    let release!: () => void;
    const firstWrite = new Promise<void>((resolve) => (release = resolve));
    const batcher = createBatcher<number>({
      write: async (items) => {
        writes.push(items);
        if (writes.length === 1) await firstWrite;
      },
    });
    const first = batcher.add(1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toEqual([[1]]);
    const later = [2, 3, 4].map((n) => batcher.add(n));
    await new Promise((resolve) => setTimeout(resolve, 20));
    // Still one write: the others wait for it rather than racing it.
    expect(writes).toEqual([[1]]);
    release();
    await Promise.all([first, ...later]);
    expect(writes).toEqual([[1], [2, 3, 4]]);
  });

  it("flush writes what is waiting", async () => {
    const writes: number[][] = [];
    const batcher = createBatcher<number>({ write: async (items) => void writes.push(items) });
    const added = batcher.add(7);
    await batcher.flush();
    await added;
    expect(writes).toEqual([[7]]);
  });
});
