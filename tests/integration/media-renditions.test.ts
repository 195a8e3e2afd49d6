import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type DatabaseHandle } from "~/db/client.server";
import { mediaAssets, mediaRenditions } from "~/db/schema";
import { imageWork } from "~/media/image-work.server";
import { storePhoto } from "~/media/photos.server";
import { drainRenditions, startRenditionWorker } from "~/media/renditions.server";
import { createTestDatabase } from "../support/test-db";
import { flatJpeg, noisyJpeg } from "../support/photos";

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await createTestDatabase({ seed: false });
});
afterAll(() => handle?.close());

async function store(width: number, height: number, noisy = false): Promise<string> {
  const result = await storePhoto(
    handle.db,
    noisy ? await noisyJpeg(width, height) : await flatJpeg(width, height),
    `p-${width}x${height}.jpg`,
  );
  if (!result.ok) throw new Error(result.error);
  return result.photo.src.slice(7, 27);
}

const statusOf = async (hash: string) =>
  (
    await handle.db
      .select({ status: mediaAssets.status, error: mediaAssets.error })
      .from(mediaAssets)
      .where(eq(mediaAssets.hash, hash))
  )[0];
const renditionCount = async (hash: string) =>
  (await handle.db.select({ w: mediaRenditions.width }).from(mediaRenditions).where(eq(mediaRenditions.hash, hash)))
    .length;

describe("the rendition worker", () => {
  it("two workers on one database encode each asset once, and image work never runs two jobs at once, uploads included", async () => {
    const hashes = [await store(1250, 800), await store(1210, 700), await store(1300, 900)];
    const encodes: string[] = [];
    const onEncode = (hash: string) => encodes.push(hash);
    const [a, b] = await Promise.all([
      drainRenditions(handle, { onEncode }),
      drainRenditions(handle, { onEncode }),
      // An upload while both encode: it waits for the slot like everything else.
      store(1220, 810).then((hash) => hashes.push(hash)),
    ]);
    // Drains again, since the last upload may have arrived after both had finished their lists.
    const c = await drainRenditions(handle, { onEncode });
    expect(a + b + c).toBe(4);
    expect([...encodes].sort()).toEqual([...hashes].sort());
    expect(imageWork.stats().maxActive).toBe(1);
    for (const hash of hashes) {
      expect(await statusOf(hash)).toEqual({ status: "ready", error: null });
      expect(await renditionCount(hash)).toBe(6);
    }
  });

  // Two instances: two pools on one PostgreSQL, so only the database's advisory lock keeps them apart.
  it.runIf(process.env.TEST_DATABASE_URL)("two instances on one PostgreSQL encode each asset once", async () => {
    const other = await openDatabase({
      databaseUrl: (handle.raw.pool!.options as { connectionString: string }).connectionString,
    });
    try {
      const hashes = [await store(1230, 800), await store(1240, 800), await store(1250, 801)];
      const encodes: string[] = [];
      const onEncode = (hash: string) => encodes.push(hash);
      await Promise.all([
        drainRenditions(handle, { onEncode }),
        drainRenditions(other, { onEncode }),
        drainRenditions(other, { onEncode }),
      ]);
      expect([...encodes].sort()).toEqual([...hashes].sort());
      for (const hash of hashes) expect(await statusOf(hash)).toEqual({ status: "ready", error: null });
    } finally {
      await other.close();
    }
  });

  it("picks up, at start, assets left pending by a crash, and stops cleanly leaving the rest pending", async () => {
    // Stored with no worker running: what a crash between upload and encoding leaves.
    const left = [await store(1400, 1000, true), await store(1401, 1000, true)];
    const worker = startRenditionWorker(handle);
    // Stopped while the first asset is being encoded: the encode in progress finishes or is dropped whole.
    await new Promise((resolve) => setTimeout(resolve, 50));
    await worker.stop();
    const after = await Promise.all(left.map(statusOf));
    expect(after.every((s) => s!.status === "pending" || s!.status === "ready")).toBe(true);
    expect(after.some((s) => s!.status === "pending")).toBe(true);
    for (const [i, hash] of left.entries()) {
      expect(await renditionCount(hash)).toBe(after[i]!.status === "ready" ? 6 : 0);
    }

    // The next start finishes them.
    const next = startRenditionWorker(handle, { pollMs: 60_000 });
    await next.idle();
    await next.stop();
    for (const hash of left) expect(await statusOf(hash)).toEqual({ status: "ready", error: null });
  });

  it("wakes on an upload", async () => {
    const worker = startRenditionWorker(handle, { pollMs: 60_000 });
    await worker.idle();
    const hash = await store(810, 600);
    await worker.idle();
    expect((await statusOf(hash))!.status).toBe("ready");
    await worker.stop();
  });

  it("marks an asset it cannot encode as failed, with a message, and goes on with the others", async () => {
    await handle.db.insert(mediaAssets).values({
      hash: "badbadbadbadbadbad00",
      originalName: "broken.jpg",
      width: 500,
      height: 500,
      master: Buffer.from("not webp at all"),
    });
    const good = await store(820, 500);
    const errors: unknown[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => errors.push(args);
    try {
      await drainRenditions(handle);
    } finally {
      console.error = original;
    }
    expect(await statusOf("badbadbadbadbadbad00")).toEqual({
      status: "failed",
      error: expect.stringMatching(/^Could not make this photo's smaller copies: /),
    });
    expect(errors).toHaveLength(1);
    expect((await statusOf(good))!.status).toBe("ready");
  });
});
