import sharp from "sharp";

// One libvips thread per operation: with a single slot below, image work never takes more than one
// of the machine's cores, however many photos are waiting (decision 078).
sharp.concurrency(1);

export type ImageWorkPriority = "upload" | "rendition";

interface Waiting {
  priority: ImageWorkPriority;
  start: () => void;
}

/**
 * The process's one slot for CPU-heavy image work. An owner's upload (decode and master) goes ahead
 * of queued rendition encodes, so it waits for at most the encode in progress.
 */
function createImageWorkSlot() {
  let active = 0;
  let maxActive = 0;
  const waiting: Waiting[] = [];

  const next = () => {
    if (active > 0) return;
    const index = waiting.findIndex((w) => w.priority === "upload");
    const job = waiting.splice(index >= 0 ? index : 0, 1)[0];
    job?.start();
  };

  return {
    run<T>(priority: ImageWorkPriority, work: () => Promise<T>): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        waiting.push({
          priority,
          start: () => {
            active++;
            maxActive = Math.max(maxActive, active);
            work()
              .then(resolve, reject)
              .finally(() => {
                active--;
                next();
              });
          },
        });
        next();
      });
    },
    /** For tests: the most image jobs that ever ran at once in this process. */
    stats: () => ({ active, waiting: waiting.length, maxActive }),
  };
}

export const imageWork = createImageWorkSlot();
