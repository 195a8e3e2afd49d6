import { createRequire } from "node:module";
import fs from "node:fs";
import os from "node:os";
import type sharpType from "sharp";

const requireHere = createRequire(import.meta.url);
let sharpModule: typeof sharpType | undefined;

/**
 * sharp (libvips), loaded at the first image job rather than at start: it costs about 15 MB of
 * resident memory and 20 ms of start-up, and most processes never make a photo (decision 090).
 * Synchronous (sharp is CommonJS) so that `canDecodeHeic()` can stay so.
 */
export function loadSharp(): typeof sharpType {
  if (!sharpModule) {
    sharpModule = requireHere("sharp") as typeof sharpType;
    // One libvips thread per operation: with a single slot below, image work never takes more than one
    // of the machine's cores, however many photos are waiting (decision 078).
    sharpModule.concurrency(1);
  }
  return sharpModule;
}

/** The lowest scheduling priority: pixels wait for every page the process (and the machine) serves. */
const IMAGE_THREAD_NICE = 19;
const lowered = new Set<string>();

/**
 * Lowers the priority of libvips's own threads, where the pixel work runs. Linux schedules threads,
 * not processes, so a thread's nice value can be set alone; the main thread (pages, PGlite) and
 * libuv's pool (files, password hashing) keep theirs. Elsewhere this does nothing.
 */
function lowerImageThreadPriority(): void {
  if (process.platform !== "linux") return;
  try {
    for (const tid of fs.readdirSync("/proc/self/task")) {
      if (lowered.has(tid)) continue;
      const name = fs.readFileSync(`/proc/self/task/${tid}/comm`, "utf8").trim();
      if (!name.startsWith("libvips")) continue;
      os.setPriority(Number(tid), IMAGE_THREAD_NICE);
      lowered.add(tid);
    }
  } catch {
    // A thread that ended meanwhile, or a system without /proc: the priority is a refinement.
  }
}

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
            lowerImageThreadPriority();
            work()
              .then(resolve, reject)
              .finally(() => {
                active--;
                // libvips starts its threads during the first jobs: catch those too.
                lowerImageThreadPriority();
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
