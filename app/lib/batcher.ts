/**
 * Group commit: items added within a short window are written together, and each caller's promise
 * settles when the write that holds its item has committed (or failed). Nothing is acknowledged
 * before it is stored, yet one write serves many requests.
 */
export interface BatcherOptions<T> {
  write: (items: T[]) => Promise<void>;
  /** Largest batch written at once. */
  maxBatch?: number;
  /** How long the first item of a batch may wait for company. */
  maxWaitMs?: number;
}

export interface Batcher<T> {
  add(item: T): Promise<void>;
  /** Writes whatever is waiting now (for shutdown and tests). */
  flush(): Promise<void>;
}

export function createBatcher<T>({ write, maxBatch = 200, maxWaitMs = 5 }: BatcherOptions<T>): Batcher<T> {
  const pending: { item: T; resolve: () => void; reject: (error: unknown) => void }[] = [];
  let timer: NodeJS.Timeout | undefined;
  let writing: Promise<void> = Promise.resolve();

  function drain(): Promise<void> {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (!pending.length) return writing;
    const batch = pending.splice(0, maxBatch);
    if (pending.length) timer = setTimeout(drain, 0);
    // Writes run one after another, so a batch never races the one before it.
    writing = writing.then(() =>
      write(batch.map((entry) => entry.item)).then(
        () => batch.forEach((entry) => entry.resolve()),
        (error) => batch.forEach((entry) => entry.reject(error)),
      ),
    );
    return writing;
  }

  return {
    add(item) {
      return new Promise<void>((resolve, reject) => {
        pending.push({ item, resolve, reject });
        if (pending.length >= maxBatch) void drain();
        else timer ??= setTimeout(drain, maxWaitMs);
      });
    },
    async flush() {
      while (pending.length) await drain();
      await writing;
    },
  };
}
