import { sql } from "drizzle-orm";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { backupDatabase, restoreDatabase, tablesInDependencyOrder } from "~/db/backup.server";
import type { DatabaseHandle } from "~/db/client.server";
import { analyticsEvents, contactSubmissions, orderLines, orders } from "~/db/schema";
import { createTestDatabase } from "../setup/test-db";

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
    await source.db.insert(orderLines).values({ orderId: order.id, displayName: "Candy Earrings", quantity: 1, unitPriceCents: 35000 });
    await source.db.insert(analyticsEvents).values(
      Array.from({ length: 2500 }, (_, i) => ({ sessionId: `s${i % 7}`, eventType: "page_view", pagePath: `/p/${i}`, metadata: { i } })),
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
});
