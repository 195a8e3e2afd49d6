import { and, asc, count, eq, ilike, ne, or, sql } from "drizzle-orm";
import { changedFields, recordAudit } from "~/admin/audit.server";
import type { Database } from "~/db/client.server";
import { isRowId } from "~/db/row-id";
import { catalogItems, catalogSlugRedirects, orderLines } from "~/db/schema";
import { formatRand, tenfoldPriceChange } from "~/lib/money";
import { heldUnits, unitsAvailable } from "~/stock/availability.server";
import { lockStockKey } from "~/stock/holds.server";
import { catalogStockKey } from "~/stock/keys";
import { listVariants } from "./product-variants.server";
import { newUntilAfterSave } from "./collection-options";
import { productRowValues, type ProductInput } from "./product-schema";

export const PRODUCTS_PAGE_SIZE = 25;

export interface ProductListQuery {
  q: string;
  kind: "" | "product" | "solution" | "service";
  page: number;
}

/** The admin's product list: search by name or slug, filter by kind, newest edits never reorder it. */
export async function listProductsForAdmin(db: Database, query: ProductListQuery, now: Date) {
  const term = query.q
    .trim()
    .slice(0, 100)
    .replace(/[\\%_]/g, (c) => `\\${c}`);
  const where = and(
    eq(catalogItems.archived, false),
    query.kind ? eq(catalogItems.kind, query.kind) : undefined,
    term ? or(ilike(catalogItems.name, `%${term}%`), ilike(catalogItems.slug, `%${term}%`)) : undefined,
  );
  const [{ total }] = await db.select({ total: count() }).from(catalogItems).where(where);
  const pages = Math.max(1, Math.ceil(total / PRODUCTS_PAGE_SIZE));
  const page = Math.min(Math.max(1, query.page), pages);
  const rows = await db
    .select()
    .from(catalogItems)
    .where(where)
    .orderBy(asc(catalogItems.sortOrder), asc(catalogItems.id))
    .limit(PRODUCTS_PAGE_SIZE)
    .offset((page - 1) * PRODUCTS_PAGE_SIZE);
  const held = await heldUnits(
    db,
    rows.filter((r) => r.stockQuantity !== null && r.optionNames.length === 0).map((r) => catalogStockKey(r.id)),
    now,
  );
  // A product with sizes or colours counts its rows on sale: what is left and held over all of them.
  const variants = await listVariants(
    db,
    rows.filter((r) => r.optionNames.length > 0).map((r) => r.id),
    now,
  );
  const stockOf = (r: (typeof rows)[number]) => {
    const list = variants.get(r.id)?.filter((v) => v.enabled);
    if (!list) {
      const heldNow = held.get(catalogStockKey(r.id)) ?? 0;
      return { stock: r.stockQuantity, held: heldNow, left: unitsAvailable(r.stockQuantity, heldNow) };
    }
    if (list.some((v) => v.stockQuantity === null)) return { stock: null, held: 0, left: null };
    const stock = list.reduce((n, v) => n + v.stockQuantity!, 0);
    const left = list.reduce((n, v) => n + (v.available ?? 0), 0);
    return { stock, held: stock - left, left };
  };
  return {
    total,
    page,
    pages,
    products: rows.map((r) => ({
      id: r.id,
      name: r.name,
      slug: r.slug,
      kind: r.kind,
      price: r.priceCents === null ? r.priceText : formatRand(r.priceCents),
      ...stockOf(r),
      visible: r.visible,
      image: r.images[0] ?? null,
      imageAlt: r.imageAlts[0] || r.name,
    })),
  };
}

export async function findProductForAdmin(db: Database, id: number) {
  if (!isRowId(id)) return null;
  const [row] = await db
    .select()
    .from(catalogItems)
    .where(and(eq(catalogItems.id, id), eq(catalogItems.archived, false)))
    .limit(1);
  return row ?? null;
}

export type SaveProductResult =
  | { ok: true; id: number; slug: string; created: boolean }
  | { ok: false; fieldErrors: Record<string, string>; confirm?: Record<string, number> };

/** The fields the activity log compares. */
const AUDITED = [
  "name",
  "slug",
  "kind",
  "priceCents",
  "priceText",
  "description",
  "stockQuantity",
  "visible",
  "sortOrder",
  "images",
  "imageAlts",
  "newUntil",
] as const;
const auditView = (row: Record<string, unknown>) => Object.fromEntries(AUDITED.map((k) => [k, row[k]]));

/**
 * Creates or updates a product. A new slug keeps the old one redirecting; the stock is written
 * under the same per-item lock that checkout holds take (decision 042), so an edit racing a buyer
 * is ordered before or after the hold, never between its count and its insert.
 */
export async function saveProduct(
  db: Database,
  args: { id: number | null; input: ProductInput; now: Date },
): Promise<SaveProductResult> {
  const values = productRowValues(args.input);
  if (!values.slug)
    return { ok: false, fieldErrors: { slug: "Enter a slug: the name has no letters or digits to make one from." } };
  return db.transaction(async (tx) => {
    const clash = await tx
      .select({ id: catalogItems.id, slug: catalogItems.slug, name: catalogItems.name })
      .from(catalogItems)
      .where(
        and(
          or(eq(catalogItems.slug, values.slug), sql`lower(${catalogItems.name}) = lower(${values.name})`),
          args.id ? ne(catalogItems.id, args.id) : undefined,
        ),
      )
      .limit(2);
    const fieldErrors: Record<string, string> = {};
    if (clash.some((c) => c.slug === values.slug))
      fieldErrors.slug = `The slug ${values.slug} is already used by another product.`;
    // Checkout finds an item by its name, so two items may not share one.
    if (clash.some((c) => c.name.toLowerCase() === values.name.toLowerCase()))
      fieldErrors.name = "Another product already has this name.";
    const [redirectClash] = await tx
      .select({ itemId: catalogSlugRedirects.itemId })
      .from(catalogSlugRedirects)
      .where(eq(catalogSlugRedirects.oldSlug, values.slug));
    if (redirectClash && redirectClash.itemId !== args.id)
      fieldErrors.slug ??= `The slug ${values.slug} used to belong to another product and still leads there.`;
    if (Object.keys(fieldErrors).length) return { ok: false as const, fieldErrors };

    if (args.id === null) {
      const newUntil = newUntilAfterSave(args.input.markNew, null, args.now);
      const [row] = await tx
        .insert(catalogItems)
        .values({ ...values, newUntil, createdAt: args.now, updatedAt: args.now })
        .returning();
      await recordAudit(
        tx,
        {
          action: "product.create",
          entity: "product",
          entityId: row.id,
          summary: `Added ${row.name}`,
          after: auditView(row),
        },
        args.now,
      );
      return { ok: true as const, id: row.id, slug: row.slug, created: true };
    }

    await lockStockKey(tx, catalogStockKey(args.id));
    const [before] = await tx
      .select()
      .from(catalogItems)
      .where(and(eq(catalogItems.id, args.id), eq(catalogItems.archived, false)));
    if (!before) return { ok: false as const, fieldErrors: { form: "This product no longer exists." } };
    const confirm: Record<string, number> = {};
    // A tenfold change is most often a separator read the wrong way: it waits for a second save (decision 103).
    const question = tenfoldPriceChange(before.priceCents, values.priceCents);
    if (question && args.input.confirmPrice !== String(values.priceCents)) {
      fieldErrors.price = question;
      confirm.price = values.priceCents!;
    }
    if (values.stockQuantity !== null && values.stockQuantity !== before.stockQuantity) {
      const held = (await heldUnits(tx, [catalogStockKey(args.id)], args.now)).get(catalogStockKey(args.id)) ?? 0;
      if (values.stockQuantity < held) {
        fieldErrors.stock =
          `${held} ${held === 1 ? "unit is" : "units are"} held by checkouts in progress: stock ` +
          `can't be lower than ${held} until they are paid or released.`;
      }
    }
    if (Object.keys(fieldErrors).length) return { ok: false as const, fieldErrors, confirm };
    const newUntil = newUntilAfterSave(args.input.markNew, before.newUntil, args.now);
    const [after] = await tx
      .update(catalogItems)
      .set({ ...values, newUntil, updatedAt: args.now })
      .where(eq(catalogItems.id, args.id))
      .returning();
    if (before.slug !== after.slug) {
      // Links already shared keep working: the old slug (and any older ones) lead to the new page.
      await tx.delete(catalogSlugRedirects).where(eq(catalogSlugRedirects.oldSlug, after.slug));
      await tx
        .insert(catalogSlugRedirects)
        .values({ oldSlug: before.slug, itemId: after.id, createdAt: args.now })
        .onConflictDoNothing();
    }
    const diff = changedFields(auditView(before), auditView(after));
    if (diff.fields.length) {
      await recordAudit(
        tx,
        {
          action: "product.update",
          entity: "product",
          entityId: after.id,
          summary: `Changed ${diff.fields.join(", ")} of ${after.name}`,
          before: diff.before,
          after: diff.after,
        },
        args.now,
      );
    }
    return { ok: true as const, id: after.id, slug: after.slug, created: false };
  });
}

/**
 * Removes a product. One that was ever ordered is archived instead (hidden everywhere, kept for its
 * orders' history); one never ordered is deleted with its old slugs.
 */
export async function removeProduct(db: Database, id: number, now: Date): Promise<"deleted" | "archived" | "missing"> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(catalogItems)
      .where(and(eq(catalogItems.id, id), eq(catalogItems.archived, false)));
    if (!row) return "missing" as const;
    const [{ n }] = await tx.select({ n: count() }).from(orderLines).where(eq(orderLines.catalogItemId, id));
    if (n > 0) {
      await tx
        .update(catalogItems)
        .set({ archived: true, visible: false, updatedAt: now })
        .where(eq(catalogItems.id, id));
      await recordAudit(
        tx,
        {
          action: "product.archive",
          entity: "product",
          entityId: id,
          summary: `Archived ${row.name} (kept for its ${n} ${n === 1 ? "order" : "orders"})`,
          before: auditView(row),
        },
        now,
      );
      return "archived" as const;
    }
    await tx.delete(catalogItems).where(eq(catalogItems.id, id));
    await recordAudit(
      tx,
      {
        action: "product.delete",
        entity: "product",
        entityId: id,
        summary: `Deleted ${row.name}`,
        before: auditView(row),
      },
      now,
    );
    return "deleted" as const;
  });
}
