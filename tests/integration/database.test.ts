import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { countRows, type DatabaseHandle } from "~/db/client.server";
import { runMigrations } from "~/db/migrate.server";
import { blogPosts, catalogItems, events, membershipTiers } from "~/db/schema";
import { seedDatabase } from "~/db/seed.server";
import { catalogSeed } from "~/content/catalog";
import { eventsSeed } from "~/content/events";
import { membershipsSeed } from "~/content/memberships";
import { postsSeed } from "~/content/posts";
import { eq } from "drizzle-orm";
import { createTestDatabase } from "../support/test-db";

let handle: DatabaseHandle;

beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(async () => {
  await handle?.close();
});

const tables = [
  "catalog_items",
  "events",
  "ticket_options",
  "membership_tiers",
  "blog_posts",
  "contact_submissions",
  "analytics_events",
  "orders",
  "order_lines",
  "payment_webhook_events",
  "stock_holds",
  "admin_sessions",
  "login_attempts",
  "email_outbox",
];

describe(`database layer (${process.env.TEST_DATABASE_URL ? "PostgreSQL" : "PGlite"})`, () => {
  it("applies the committed migrations: every domain table exists", async () => {
    const result = await handle.db.execute(
      sql`select table_name from information_schema.tables where table_schema = 'public'`,
    );
    const names = (result as unknown as { rows: { table_name: string }[] }).rows.map((r) => r.table_name);
    for (const table of tables) expect(names).toContain(table);
  });

  it("seeds every item, event, ticket option, tier and sample post from the content modules", async () => {
    expect(await countRows(handle.db, "catalog_items")).toBe(catalogSeed.length + 1);
    expect(await countRows(handle.db, "events")).toBe(eventsSeed.length);
    expect(await countRows(handle.db, "ticket_options")).toBe(
      eventsSeed.reduce((n, e) => n + e.ticketOptions.length, 0),
    );
    expect(await countRows(handle.db, "membership_tiers")).toBe(12);
    expect(membershipsSeed.filter((t) => t.tierSet === "newer")).toHaveLength(6);
    expect(await countRows(handle.db, "blog_posts")).toBe(postsSeed.length);
    const [candy] = await handle.db.select().from(catalogItems).where(eq(catalogItems.slug, "candy-earrings"));
    expect(candy).toMatchObject({ priceCents: 35000, stockQuantity: 10, priceText: "R 350.00" });
    const [test] = await handle.db.select().from(catalogItems).where(eq(catalogItems.slug, "test-product"));
    expect(test).toMatchObject({ name: "Test Product", priceCents: 500, visible: false });
  });

  it("seeding again changes nothing and never overwrites the owner's edits", async () => {
    await handle.db
      .update(catalogItems)
      .set({ priceCents: 39900, priceText: "R 399.00" })
      .where(eq(catalogItems.slug, "candy-earrings"));
    await handle.db.update(events).set({ title: "Sip & Style (moved)" }).where(eq(events.id, "sip-style"));
    const before = await Promise.all(tables.map((t) => countRows(handle.db, t)));
    await runMigrations(handle);
    await seedDatabase(handle.db);
    const after = await Promise.all(tables.map((t) => countRows(handle.db, t)));
    expect(after).toEqual(before);
    const [candy] = await handle.db.select().from(catalogItems).where(eq(catalogItems.slug, "candy-earrings"));
    expect(candy.priceCents).toBe(39900);
    const [event] = await handle.db.select().from(events).where(eq(events.id, "sip-style"));
    expect(event.title).toBe("Sip & Style (moved)");
    const [tier] = await handle.db
      .select()
      .from(membershipTiers)
      .where(eq(membershipTiers.slug, "upcycle-kings-queens"));
    expect(tier).toMatchObject({ priceCents: null, priceText: "Contact Us" });
  });

  it("a renamed product or a deleted post does not come back on the next start", async () => {
    await handle.db
      .update(catalogItems)
      .set({ slug: "candy-drop-earrings" })
      .where(eq(catalogItems.slug, "candy-earrings"));
    const [post] = await handle.db.select().from(blogPosts).limit(1);
    await handle.db.delete(blogPosts).where(eq(blogPosts.id, post.id));
    await seedDatabase(handle.db);
    expect(await handle.db.select().from(catalogItems).where(eq(catalogItems.slug, "candy-earrings"))).toEqual([]);
    expect(await handle.db.select().from(blogPosts).where(eq(blogPosts.slug, post.slug))).toEqual([]);
  });

  it("announces a committed change to what public pages show, to every listener (the page caches)", async () => {
    const heard: string[] = [];
    const stopA = await handle.onContentChange(() => heard.push("a"));
    const stopB = await handle.onContentChange(() => heard.push("b"));
    // PostgreSQL's listener connects in the background: wait until it hears a first change. Each try
    // really changes the row (an update that changes nothing announces nothing).
    let tries = 10;
    await expect
      .poll(async () => {
        await handle.db
          .update(catalogItems)
          .set({ sortOrder: tries++ })
          .where(eq(catalogItems.slug, "beaded-jewellery"));
        return heard.includes("a") && heard.includes("b");
      })
      .toBe(true);
    heard.length = 0;
    await handle.db.update(catalogItems).set({ sortOrder: 2 }).where(eq(catalogItems.slug, "beaded-jewellery"));
    // Each listener hears it (one that connected late may still be hearing the updates of the poll above).
    await expect.poll(() => heard.includes("a") && heard.includes("b")).toBe(true);
    await stopA();
    await stopB();
    heard.length = 0;
    await handle.db.update(catalogItems).set({ sortOrder: 3 }).where(eq(catalogItems.slug, "beaded-jewellery"));
    await handle.ping();
    expect(heard).toEqual([]);
  });

  it("ping fails once the database is closed", async () => {
    const other = await createTestDatabase({ seed: false });
    await other.ping();
    await other.close();
    await expect(other.ping()).rejects.toThrow();
  });
});
