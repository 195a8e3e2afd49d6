import { sql } from "drizzle-orm";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { backupDatabase, restoreDatabase, tablesInDependencyOrder } from "~/db/backup.server";
import type { DatabaseHandle } from "~/db/client.server";
import { eq } from "drizzle-orm";
import { analyticsEvents, contactSubmissions, mediaAssets, mediaRenditions, orderLines, orders } from "~/db/schema";
import { storePhoto } from "~/media/photos.server";
import { drainRenditions } from "~/media/renditions.server";
import { noisyJpeg } from "../support/photos";
import { createTestDatabase } from "../support/test-db";

const handles: DatabaseHandle[] = [];
afterAll(async () => {
  await Promise.all(handles.map((h) => h.close()));
});

async function snapshot(handle: DatabaseHandle) {
  const tables = await tablesInDependencyOrder(handle.db);
  const out: Record<string, unknown[]> = {};
  for (const table of tables) {
    const result = await handle.db.execute(sql`select to_jsonb(t) as row from ${sql.identifier(table)} t order by 1`);
    out[table] = (result as unknown as { rows: { row: unknown }[] }).rows.map((r) => r.row);
  }
  return out;
}

describe("backup and restore", () => {
  it("orders tables so that referenced tables come first", async () => {
    const handle = await createTestDatabase({ seed: false });
    handles.push(handle);
    const order = await tablesInDependencyOrder(handle.db);
    expect(order.indexOf("orders")).toBeLessThan(order.indexOf("order_lines"));
    expect(order.indexOf("events")).toBeLessThan(order.indexOf("ticket_options"));
    expect(order.indexOf("catalog_items")).toBeLessThan(order.indexOf("order_lines"));
  });

  it("round-trips every row, and new rows continue the id sequences", async () => {
    const source = await createTestDatabase();
    const target = await createTestDatabase({ seed: false });
    handles.push(source, target);
    await source.db.insert(contactSubmissions).values({
      firstName: "Thandi",
      lastName: "Mokoena",
      email: "thandi@example.co.za",
      subject: "Ünïcödé 🐝 'quotes' \"double\"",
      message: "Line one\nLine two\u0000".replace("\u0000", ""),
    });
    const [order] = await source.db
      .insert(orders)
      .values({
        reference: "HB-TEST1",
        orderType: "product",
        itemName: "Candy Earrings",
        amountCents: 35000,
        customerFirstName: "A",
        customerLastName: "B",
        customerEmail: "a@example.com",
        customerPhone: "0820000000",
        customerAddress: "1 Long St\nCape Town",
        provider: "simulator",
        idempotencyKey: "k-1",
      })
      .returning();
    await source.db
      .insert(orderLines)
      .values({ orderId: order.id, displayName: "Candy Earrings", quantity: 1, unitPriceCents: 35000 });
    await source.db.insert(analyticsEvents).values(
      Array.from({ length: 2500 }, (_, i) => ({
        sessionId: `s${i % 7}`,
        eventType: "page_view",
        pagePath: `/p/${i}`,
        metadata: { i },
      })),
    );

    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "honey-backup-")), "backup.ndjson");
    const written = await backupDatabase(source.db, file);
    expect(written.rows).toBeGreaterThan(2500);

    const restored = await restoreDatabase(target.db, file);
    expect(restored.rows).toBe(written.rows);
    expect(await snapshot(target)).toEqual(await snapshot(source));

    const [next] = await target.db
      .insert(contactSubmissions)
      .values({ firstName: "N", lastName: "N", email: "n@example.com", subject: "s", message: "m" })
      .returning();
    expect(next.id).toBe(2);
  });

  it("refuses to restore over existing data unless asked to replace it", async () => {
    const source = await createTestDatabase();
    const target = await createTestDatabase();
    handles.push(source, target);
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "honey-backup-")), "b.ndjson");
    await backupDatabase(source.db, file);
    await expect(restoreDatabase(target.db, file)).rejects.toThrow(/--replace/);
    await restoreDatabase(target.db, file, { replace: true });
    expect(await snapshot(target)).toEqual(await snapshot(source));
  });

  it("brings an uploaded photo back byte for byte: its master and every rendition", async () => {
    const source = await createTestDatabase({ seed: false });
    const target = await createTestDatabase({ seed: false });
    handles.push(source, target);
    const stored = await storePhoto(source.db, await noisyJpeg(900, 700), "market.jpg");
    if (!stored.ok) throw new Error(stored.error);
    await drainRenditions(source);
    // Every byte value, including those JSON escapes and a backslash-x that looks like hex text.
    const allBytes = Buffer.concat([Buffer.from(Array.from({ length: 256 }, (_, i) => i)), Buffer.from("\\x00ff")]);
    await source.db.insert(mediaAssets).values({
      hash: "0000000000ffffffffff",
      originalName: "bytes",
      width: 1,
      height: 1,
      status: "failed",
      master: allBytes,
    });
    // A visitor's JSON that looks like the marker stays JSON.
    await source.db
      .insert(analyticsEvents)
      .values({ sessionId: "s-marker", eventType: "page_view", pagePath: "/", metadata: { $bytea: "AAEC" } });

    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "honey-backup-")), "photos.ndjson");
    await backupDatabase(source.db, file);
    // Bytes travel as base64, not as PostgreSQL's hex text (half the size again).
    const text = fs.readFileSync(file, "utf8");
    expect(text.includes('"master":{"$bytea":"')).toBe(true);
    expect(text.includes('"master":"\\\\x')).toBe(false);
    await restoreDatabase(target.db, file);

    const hash = stored.photo.src.slice(7, 27);
    const masterOf = async (handle: DatabaseHandle, h: string) =>
      (await handle.db.select().from(mediaAssets).where(eq(mediaAssets.hash, h)))[0]!.master;
    expect(Buffer.compare(await masterOf(target, hash), await masterOf(source, hash))).toBe(0);
    expect(Buffer.compare(await masterOf(target, "0000000000ffffffffff"), allBytes)).toBe(0);
    const renditions = async (handle: DatabaseHandle) =>
      (await handle.db.select().from(mediaRenditions).orderBy(mediaRenditions.format, mediaRenditions.width)).map(
        (r) => ({ ...r, bytes: r.bytes.toString("base64") }),
      );
    const restored = await renditions(target);
    expect(restored).toHaveLength(6);
    expect(restored).toEqual(await renditions(source));
    expect(await snapshot(target)).toEqual(await snapshot(source));
    const [event] = await target.db.select().from(analyticsEvents).where(eq(analyticsEvents.sessionId, "s-marker"));
    expect(event!.metadata).toEqual({ $bytea: "AAEC" });
  });
});
