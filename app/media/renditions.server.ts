import { and, asc, eq, type SQL } from "drizzle-orm";
import type sharp from "sharp";
import type { Database, DatabaseHandle } from "~/db/client.server";
import { mediaAssets, mediaRenditions } from "~/db/schema";
import { renditionWidthsFor, type RenditionFormat } from "~/lib/image-renditions";
import { bytesColumn, bytesParam, fromBase64 } from "./bytes.server";
import { imageWork, loadSharp } from "./image-work.server";

/** Same settings as the build's renditions of the shipped images (scripts/image-renditions.js, decision 065). */
const ENCODE: Record<RenditionFormat, (image: sharp.Sharp) => sharp.Sharp> = {
  avif: (image) => image.avif({ quality: 50, effort: 2 }),
  webp: (image) => image.webp({ quality: 75, effort: 4 }),
};
export const RENDITION_FORMATS: RenditionFormat[] = ["avif", "webp"];

/** Two-key advisory lock namespace for "an instance is encoding this asset" (PostgreSQL only). */
const LOCK_NAMESPACE = 78_001;

type DatabaseLike = Database | Pick<DatabaseHandle, "db" | "kind" | "raw">;
const handleOf = (database: DatabaseLike) =>
  "db" in database && "kind" in database ? database : { db: database as Database, kind: "pglite" as const, raw: {} };

/** Assets this process is encoding, per database: PGlite has one process, so this is its whole claim. */
const inProcessClaims = new WeakMap<Database, Set<string>>();

export interface DrainOptions {
  /** Checked between encodes: a stopping server leaves the rest pending for the next start. */
  shouldStop?: () => boolean;
  /** Called once per asset this call encodes (tests count them). */
  onEncode?: (hash: string) => void;
}

/**
 * Runs `work` while this process holds the asset: in-process always, and on PostgreSQL also a
 * session advisory lock on a connection of its own, so several instances sharing one database never
 * encode one asset twice. The lock dies with the connection, so a crashed instance's asset is free
 * for the next one at once. Returns false when someone else holds it.
 */
async function withClaim(
  database: ReturnType<typeof handleOf>,
  hash: string,
  work: () => Promise<void>,
): Promise<boolean> {
  let claims = inProcessClaims.get(database.db);
  if (!claims) inProcessClaims.set(database.db, (claims = new Set()));
  if (claims.has(hash)) return false;
  claims.add(hash);
  try {
    const pool = database.raw.pool;
    if (!pool) {
      await work();
      return true;
    }
    const client = await pool.connect();
    try {
      const { rows } = await client.query<{ ok: boolean }>("select pg_try_advisory_lock($1, hashtext($2)) as ok", [
        LOCK_NAMESPACE,
        hash,
      ]);
      if (!rows[0]?.ok) return false;
      try {
        await work();
      } finally {
        await client.query("select pg_advisory_unlock($1, hashtext($2))", [LOCK_NAMESPACE, hash]).catch(() => {});
      }
      return true;
    } finally {
      client.release();
    }
  } finally {
    claims.delete(hash);
  }
}

/** Encodes every rendition of one pending asset, then stores them and marks it ready in one transaction. */
async function encodeAsset(db: Database, hash: string, options: DrainOptions): Promise<"done" | "skipped" | "stopped"> {
  // Re-read under the claim: another instance may have finished it since the list was read.
  const [asset] = await db
    .select({ master: bytesColumn(mediaAssets.master), width: mediaAssets.width })
    .from(mediaAssets)
    .where(and(eq(mediaAssets.hash, hash), eq(mediaAssets.status, "pending")));
  if (!asset) return "skipped";
  const master = fromBase64(asset.master);
  options.onEncode?.(hash);
  try {
    const rows: { hash: string; format: RenditionFormat; width: number; height: number; bytes: SQL }[] = [];
    for (const width of renditionWidthsFor(asset.width)) {
      for (const format of RENDITION_FORMATS) {
        if (options.shouldStop?.()) return "stopped";
        const { data, info } = await imageWork.run("rendition", () =>
          ENCODE[format](loadSharp()(master).resize({ width, withoutEnlargement: true })).toBuffer({
            resolveWithObject: true,
          }),
        );
        rows.push({ hash, format, width: info.width, height: info.height, bytes: bytesParam(data) });
      }
    }
    await db.transaction(async (tx) => {
      await tx.insert(mediaRenditions).values(rows).onConflictDoNothing();
      await tx.update(mediaAssets).set({ status: "ready", error: null }).where(eq(mediaAssets.hash, hash));
    });
  } catch (error) {
    const message = `Could not make this photo's smaller copies: ${(error as Error).message}`.slice(0, 500);
    console.error(`[media] ${hash}: ${message}`);
    await db.update(mediaAssets).set({ status: "failed", error: message }).where(eq(mediaAssets.hash, hash));
  }
  return "done";
}

/**
 * Encodes pending assets until none is left that this process can claim; returns how many it
 * encoded. Tests await it; the worker below runs it in the background.
 */
export async function drainRenditions(database: DatabaseLike, options: DrainOptions = {}): Promise<number> {
  const handle = handleOf(database);
  let encoded = 0;
  for (;;) {
    if (options.shouldStop?.()) return encoded;
    const pending = await handle.db
      .select({ hash: mediaAssets.hash })
      .from(mediaAssets)
      .where(eq(mediaAssets.status, "pending"))
      .orderBy(asc(mediaAssets.createdAt), asc(mediaAssets.hash))
      .limit(20);
    let progressed = false;
    for (const { hash } of pending) {
      const result: { outcome: Awaited<ReturnType<typeof encodeAsset>> } = { outcome: "skipped" };
      const claimed = await withClaim(handle, hash, async () => {
        result.outcome = await encodeAsset(handle.db, hash, options);
      });
      if (result.outcome === "stopped") return encoded;
      if (claimed && result.outcome === "done") {
        encoded++;
        progressed = true;
      }
    }
    if (!progressed) return encoded;
  }
}

export interface RenditionWorker {
  /** Looks for pending assets now (after an upload). */
  wake(): void;
  /** Resolves when the worker has nothing in progress. */
  idle(): Promise<void>;
  /** Stops looking, lets the encode in progress finish, leaves the rest pending. */
  stop(): Promise<void>;
}

const workers = new WeakMap<Database, RenditionWorker>();

/** Called by storePhoto: the worker serving this database (if this process runs one) starts at once. */
export function wakeRenditionWorker(db: Database): void {
  workers.get(db)?.wake();
}

/**
 * The process's rendition worker: one asset at a time, woken by uploads, once at start (assets a
 * crash or a deploy left pending) and every `pollMs` (assets another instance took in and left).
 */
export function startRenditionWorker(
  database: Pick<DatabaseHandle, "db" | "kind" | "raw">,
  options: { pollMs?: number } = {},
): RenditionWorker {
  let stopping = false;
  let running: Promise<void> | undefined;
  let again = false;

  const run = () => {
    if (stopping) return;
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      do {
        again = false;
        try {
          await drainRenditions(database, { shouldStop: () => stopping });
        } catch (error) {
          // The database may be down: the next wake or poll tries again.
          console.error(`[media] rendition pass failed: ${(error as Error).message}`);
        }
      } while (again && !stopping);
    })().finally(() => {
      running = undefined;
    });
  };

  const timer = setInterval(run, options.pollMs ?? 30_000);
  timer.unref();
  const worker: RenditionWorker = {
    wake: run,
    async idle() {
      while (running) await running;
    },
    async stop() {
      stopping = true;
      clearInterval(timer);
      if (workers.get(database.db) === worker) workers.delete(database.db);
      await running;
    },
  };
  workers.set(database.db, worker);
  run();
  return worker;
}
