import { describe, expect, it } from "vitest";
import { Queue } from "./queue";

const drain = <T>(queue: Queue<T>) => {
  const out: T[] = [];
  for (let item = queue.shift(); item !== undefined; item = queue.shift()) out.push(item);
  return out;
};

describe("Queue", () => {
  it("gives items back in the order they came, across its compaction", () => {
    const queue = new Queue<number>();
    for (let i = 0; i < 5000; i++) queue.push(i);
    const firstHalf = Array.from({ length: 3000 }, () => queue.shift());
    expect(firstHalf[2999]).toBe(2999);
    expect(queue.length).toBe(2000);
    queue.push(5000);
    expect(queue.peek()).toBe(3000);
    expect(drain(queue)).toEqual(Array.from({ length: 2001 }, (_, i) => 3000 + i));
    expect(queue.length).toBe(0);
    expect(queue.shift()).toBeUndefined();
  });

  it("puts shifted items back at the head in their order, into the room they left or beyond it", () => {
    const queue = new Queue<string>();
    for (const item of ["a", "b", "c", "d"]) queue.push(item);
    const taken = [queue.shift()!, queue.shift()!];
    queue.putBack(taken);
    expect(queue.peek()).toBe("a");
    expect(queue.length).toBe(4);
    // More back than were shifted: the head has no room for them.
    queue.putBack(["x", "y", "z"]);
    expect(drain(queue)).toEqual(["x", "y", "z", "a", "b", "c", "d"]);
  });
});
