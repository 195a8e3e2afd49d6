import { eq, sql } from "drizzle-orm";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type DatabaseHandle } from "~/db/client.server";
import { isDatabaseUnavailable } from "~/db/errors.server";
import type { PgliteInWorker } from "~/db/pglite-worker.server";
import { runMigrations } from "~/db/migrate.server";
import { catalogItems, contactSubmissions, mediaAssets } from "~/db/schema";
import { seedDatabase } from "~/db/seed.server";

// The server runs PGlite on a worker thread (decision 092). These tests hold that client to what the
// app relies on from PGlite in process: the same rows and types through Drizzle, transactions that
// commit or roll back whole, one query at a time, errors with their Postgres codes, notifications,
// and a clean "unavailable" once closed. Skipped on PostgreSQL, which has no worker.
const onPglite = !process.env.TEST_DATABASE_URL;

describe.runIf(onPglite)("PGlite on a worker thread", () => {
  let inWorker: DatabaseHandle;
  let inProcess: DatabaseHandle;

  beforeAll(async () => {
    [inWorker, inProcess] = await Promise.all([openDatabase({ pgliteWorker: true }), openDatabase({})]);
    for (const handle of [inWorker, inProcess]) {
      await runMigrations(handle);
      await seedDatabase(handle.db);
    }
  });
  afterAll(async () => {
    await Promise.all([inWorker?.close(), inProcess?.close()]);
  });

  it("runs no engine in the main thread", () => {
    expect(inWorker.kind).toBe("pglite");
    expect(inWorker.raw.pglite).toBeUndefined();
    expect(inProcess.raw.pglite).toBeDefined();
  });

  it("returns the same rows, with the same JavaScript types, as PGlite in process", async () => {
    const read = (handle: DatabaseHandle) => handle.db.select().from(catalogItems).orderBy(catalogItems.slug);
    const [fromWorker, fromProcess] = await Promise.all([read(inWorker), read(inProcess)]);
    expect(fromWorker.length).toBeGreaterThan(5);
    expect(
      fromWorker.map(({ createdAt, updatedAt, ...rest }) => ({
        ...rest,
        created: createdAt instanceof Date,
        updated: updatedAt instanceof Date,
      })),
    ).toEqual(
      fromProcess.map(({ createdAt, updatedAt, ...rest }) => ({
        ...rest,
        created: createdAt instanceof Date,
        updated: updatedAt instanceof Date,
      })),
    );
    const raw = async (handle: DatabaseHandle) => {
      const result = await handle.db.execute(
        sql`select 1::int as n, 2::bigint as big, 'x'::text as t, '{"a":[1]}'::jsonb as j, array['a','b'] as arr,
          now() as ts, null as nothing, true as yes, 1.50::numeric as num, 2.5::float8 as f, array[1, 2]::int[] as ints,
          array['{"b":2}'::jsonb] as jsons, '2025-01-02'::date as d, '2025-01-02 03:04:05+02'::timestamptz as at,
          '\\x6162'::bytea as bytes, '{}'::text[] as none`,
      );
      return (result as unknown as { rows: Record<string, unknown>[] }).rows;
    };
    const [workerRow] = await raw(inWorker);
    const [processRow] = await raw(inProcess);
    expect(Object.fromEntries(Object.entries(workerRow!).map(([k, v]) => [k, typeof v]))).toEqual(
      Object.fromEntries(Object.entries(processRow!).map(([k, v]) => [k, typeof v])),
    );
    expect({ ...workerRow, ts: undefined }).toEqual({ ...processRow, ts: undefined });
    // Each column by its own type's parser (the worker hands PGlite only the parsers a result needs), and
    // Drizzle's own before PGlite's: it keeps times as text to read them itself.
    expect(workerRow).toMatchObject({ yes: true, f: 2.5, ints: [1, 2], jsons: [{ b: 2 }], none: [] });
    expect(workerRow!.at).toBe("2025-01-02 01:04:05+00");
  });

  it("carries bytes both ways", async () => {
    const bytes = Buffer.from(Array.from({ length: 70_000 }, (_, i) => i % 256));
    await inWorker.db
      .insert(mediaAssets)
      .values({ hash: "worker-bytes", originalName: "a.webp", width: 1, height: 1, master: bytes });
    const [row] = await inWorker.db.select().from(mediaAssets).where(eq(mediaAssets.hash, "worker-bytes"));
    expect(Buffer.from(row!.master).equals(bytes)).toBe(true);
  });

  it("commits a transaction whole and rolls a failed one back whole", async () => {
    const message = (n: string) => ({
      firstName: "Worker",
      lastName: n,
      email: `${n}@example.com`,
      subject: "worker",
      message: "m",
    });
    await inWorker.db.transaction(async (tx) => {
      await tx.insert(contactSubmissions).values(message("kept-1"));
      await tx.insert(contactSubmissions).values(message("kept-2"));
    });
    await expect(
      inWorker.db.transaction(async (tx) => {
        await tx.insert(contactSubmissions).values(message("lost-1"));
        throw new Error("changed my mind");
      }),
    ).rejects.toThrow("changed my mind");
    // A nested transaction (a savepoint) rolled back leaves the outer one's work.
    await inWorker.db.transaction(async (tx) => {
      await tx.insert(contactSubmissions).values(message("outer"));
      await tx
        .transaction(async (inner) => {
          await inner.insert(contactSubmissions).values(message("inner"));
          inner.rollback();
        })
        .catch(() => {});
    });
    const names = (
      await inWorker.db
        .select({ n: contactSubmissions.lastName })
        .from(contactSubmissions)
        .where(eq(contactSubmissions.subject, "worker"))
    ).map((r) => r.n);
    expect(names.sort()).toEqual(["kept-1", "kept-2", "outer"]);
  });

  it("runs concurrent transactions one at a time, so none loses another's update", async () => {
    await inWorker.db.execute(sql`create table worker_counter (id int primary key, n int not null)`);
    await inWorker.db.execute(sql`insert into worker_counter values (1, 0)`);
    await Promise.all(
      Array.from({ length: 40 }, () =>
        inWorker.db.transaction(async (tx) => {
          const { rows } = (await tx.execute(sql`select n from worker_counter where id = 1`)) as unknown as {
            rows: { n: number }[];
          };
          await tx.execute(sql`update worker_counter set n = ${rows[0]!.n + 1} where id = 1`);
        }),
      ),
    );
    const { rows } = (await inWorker.db.execute(sql`select n from worker_counter`)) as unknown as {
      rows: { n: number }[];
    };
    expect(rows[0]!.n).toBe(40);
  });

  it("reports a Postgres error with its code, and the next query still works", async () => {
    await inWorker.db.execute(sql`create table worker_unique (id int primary key)`);
    await inWorker.db.execute(sql`insert into worker_unique values (1)`);
    const error = await inWorker.db.execute(sql`insert into worker_unique values (1)`).then(
      () => undefined,
      (e: unknown) => e as Error & { cause?: { code?: string; constraint?: string } },
    );
    expect(error).toBeDefined();
    const cause = (error!.cause ?? error) as { code?: string; constraint?: string };
    expect(cause.code).toBe("23505");
    expect(cause.constraint).toBe("worker_unique_pkey");
    expect(isDatabaseUnavailable(error)).toBe(false);
    await expect(inWorker.ping()).resolves.toBeUndefined();
  });

  // Decision 097: the worker prepares each read or write once, by its text.
  const preparedNamed = async (text: string) => {
    const { rows } = (await inWorker.db.execute(
      sql`select name from pg_prepared_statements where statement = ${text}`,
    )) as unknown as { rows: { name: string }[] };
    return rows.map((row) => row.name);
  };

  it("prepares a statement once and binds it after, with the same answers as PGlite in process", async () => {
    const columns = {
      slug: catalogItems.slug,
      priceCents: catalogItems.priceCents,
      images: catalogItems.images,
      createdAt: catalogItems.createdAt,
    };
    const read = (handle: DatabaseHandle, slug: string) =>
      handle.db.select(columns).from(catalogItems).where(eq(catalogItems.slug, slug));
    const text = read(inWorker, "x").toSQL().sql;
    // The two databases were seeded a moment apart: the same rows but for their creation time.
    const answer = async (handle: DatabaseHandle, slug: string) =>
      (await read(handle, slug)).map(({ createdAt, ...rest }) => ({ ...rest, created: createdAt instanceof Date }));
    const [first] = await read(inWorker, "candy-earrings");
    expect(first).toBeDefined();
    for (const slug of ["candy-earrings", "no-such-item", "candy-earrings"]) {
      expect(await answer(inWorker, slug)).toEqual(await answer(inProcess, slug));
    }
    expect(await preparedNamed(text)).toHaveLength(1);
    // In a transaction too, and a failed statement there rolls back with the rest.
    await expect(
      inWorker.db.transaction(async (tx) => {
        await tx.select(columns).from(catalogItems).where(eq(catalogItems.slug, "candy-earrings"));
        await tx.execute(sql`select 1 / ${0}::int`);
      }),
    ).rejects.toThrow();
    expect(await preparedNamed(text)).toHaveLength(1);
    expect(await read(inWorker, "candy-earrings")).toEqual([first]);
  });

  it("keeps at most 256 statements prepared, closing the least recently used", async () => {
    const distinct = (n: number) =>
      inWorker.db.execute(sql.raw(`select ${n}::int as n, 'distinct statement' as label`));
    for (let n = 0; n < 300; n++) await distinct(n);
    const { rows } = (await inWorker.db.execute(
      sql`select count(*)::int as count from pg_prepared_statements`,
    )) as unknown as { rows: { count: number }[] };
    expect(rows[0]!.count).toBeLessThanOrEqual(256);
    expect(await preparedNamed(`select 0::int as n, 'distinct statement' as label`)).toEqual([]);
    expect(await preparedNamed(`select 299::int as n, 'distinct statement' as label`)).toHaveLength(1);
    // Closed, and prepared again when it comes back.
    expect(((await distinct(0)) as unknown as { rows: unknown[] }).rows).toEqual([
      { n: 0, label: "distinct statement" },
    ]);
  });

  it("prepares again after a command changes the tables, so no statement answers with an old shape", async () => {
    await inWorker.db.execute(sql`create table worker_shape (a int)`);
    await inWorker.db.execute(sql`insert into worker_shape values (1)`);
    const everything = async () =>
      ((await inWorker.db.execute(sql`select * from worker_shape`)) as unknown as { rows: unknown[] }).rows;
    expect(await everything()).toEqual([{ a: 1 }]);
    await inWorker.db.execute(sql`alter table worker_shape add column b text default 'new'`);
    expect(await everything()).toEqual([{ a: 1, b: "new" }]);
    expect(await preparedNamed("select * from worker_shape")).toHaveLength(1);
  });

  it("keeps its statements through commands that leave the tables be, as a backup's cursor", async () => {
    const read = () =>
      inWorker.db.execute(sql`select count(*)::int as count from catalog_items where slug <> ${"none"}`);
    await read();
    const [name] = await preparedNamed("select count(*)::int as count from catalog_items where slug <> $1");
    expect(name).toBeDefined();
    await inWorker.db.transaction(async (tx) => {
      await tx.execute(sql`set transaction isolation level repeatable read, read only`);
      await tx.execute(sql`declare worker_rows no scroll cursor for select slug from catalog_items`);
      await tx.execute(sql.raw("fetch forward 2 from worker_rows"));
      await tx.execute(sql`close worker_rows`);
    });
    await read();
    expect(await preparedNamed("select count(*)::int as count from catalog_items where slug <> $1")).toEqual([name]);
  });

  it("hands an open transaction its answer between two requests, without waiting for the event loop", async () => {
    const client = (inWorker.db as unknown as { $client: PgliteInWorker }).$client;
    await client.transaction(async (tx) => {
      let answered = false;
      const answer = tx.query("select 1 as one").then(() => (answered = true));
      // This thread is busy (a render, a crowd's requests) while the worker answers.
      const until = Date.now() + 300;
      while (Date.now() < until) {
        /* busy */
      }
      expect(answered).toBe(false);
      // What the server does before it starts each request: no event-loop turn in between.
      client.deliverTransactionAnswers();
      await Promise.resolve();
      expect(answered).toBe(true);
      await answer;
    });
  });

  it("delivers content-change notifications", async () => {
    let heard = 0;
    const stop = await inWorker.onContentChange(() => heard++);
    // A real change: an update that changes nothing announces nothing (decision 094).
    await inWorker.db
      .update(catalogItems)
      .set({ name: "Candy Earrings (pair)" })
      .where(eq(catalogItems.slug, "candy-earrings"));
    await expect.poll(() => heard).toBeGreaterThan(0);
    await stop();
  });

  it("keeps its data in a folder across a restart", async () => {
    const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "honey-worker-")), "pglite");
    const first = await openDatabase({ pgliteDir: dir, pgliteWorker: true });
    await runMigrations(first);
    await first.db
      .insert(contactSubmissions)
      .values({ firstName: "Kept", lastName: "Across", email: "k@example.com", subject: "restart", message: "m" });
    await first.close();
    const second = await openDatabase({ pgliteDir: dir, pgliteWorker: true });
    const rows = await second.db.select().from(contactSubmissions).where(eq(contactSubmissions.subject, "restart"));
    expect(rows).toHaveLength(1);
    await second.close();
  });

  it("once closed, answers every query as an unavailable database", async () => {
    const handle = await openDatabase({ pgliteWorker: true });
    await handle.close();
    await expect(handle.ping()).rejects.toThrow(/closed/);
    const error = await handle.db.execute(sql`select 1`).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isDatabaseUnavailable(error)).toBe(true);
  });
});
