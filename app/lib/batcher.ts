/**
 * Group commit: one write at a time, and everything that arrives while a write runs goes into the
 * next one. A lone item is written on the next turn of the event loop (no timer to wait out), and
 * under a crowd the batches grow by themselves. Each caller's promise settles when the write that
 * holds its item has committed (or failed): nothing is acknowledged before it is stored.
 */
export interface BatcherOptions<T> {
  write: (items: T[]) => Promise<void>;
  /** Largest batch written at once. */
  maxBatch?: number;
}

export interface Batcher<T> {
  add(item: T): Promise<void>;
  /** Resolves once everything added so far has been written (for shutdown and tests). */
  flush(): Promise<void>;
}

interface Waiting<T> {
  item: T;
  resolve: () => void;
  reject: (error: unknown) => void;
}

export function createBatcher<T>({ write, maxBatch = 500 }: BatcherOptions<T>): Batcher<T> {
  const pending: Waiting<T>[] = [];
  let running: Promise<void> | undefined;
  let scheduled = false;

  function schedule() {
    if (scheduled || running) return;
    scheduled = true;
    // setImmediate, not a microtask: requests whose bodies arrived in the same I/O pass join in.
    setImmediate(() => {
      scheduled = false;
      void runNext();
    });
  }

  function runNext(): Promise<void> {
    if (running || !pending.length) return running ?? Promise.resolve();
    const batch = pending.splice(0, maxBatch);
    running = write(batch.map((entry) => entry.item)).then(
      () => batch.forEach((entry) => entry.resolve()),
      (error: unknown) => batch.forEach((entry) => entry.reject(error)),
    );
    void running.finally(() => {
      running = undefined;
      if (pending.length) schedule();
    });
    return running;
  }

  return {
    add(item) {
      return new Promise<void>((resolve, reject) => {
        pending.push({ item, resolve, reject });
        schedule();
      });
    },
    async flush() {
      while (running || pending.length) {
        await (running ?? runNext());
        // Let the `finally` above clear `running` before looking again.
        await new Promise((resolve) => setImmediate(resolve));
      }
    },
  };
}
