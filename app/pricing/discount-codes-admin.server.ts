/** The owner's discount codes (issue 40): the list with uses and revenue, and saving one from the form. */
import { and, asc, eq, ne, sql } from "drizzle-orm";
import { changedFields, recordAudit } from "~/admin/audit.server";
import type { Database } from "~/db/client.server";
import { catalogItems, discountCodes, events } from "~/db/schema";
import { discountCodeRowValues, type DiscountCodeInput } from "./discount-code-schema";
import { codeUsesAndRevenue } from "./discount-code-uses.server";
import { codeAppliesTo, codeGives, codeUses, codeValidity } from "./discount-code-words";

export type CodeRow = typeof discountCodes.$inferSelect;

/** What a code may be limited to: the catalog's priced items and the events, by the pricing rule's keys. */
export async function codeItemChoices(db: Database): Promise<{ value: string; label: string }[]> {
  const [items, eventRows] = await Promise.all([
    db
      .select({ id: catalogItems.id, name: catalogItems.name })
      .from(catalogItems)
      .where(and(eq(catalogItems.archived, false), sql`${catalogItems.priceCents} is not null`))
      .orderBy(asc(catalogItems.name)),
    db
      .select({ id: events.id, title: events.title })
      .from(events)
      .where(eq(events.archived, false))
      .orderBy(asc(events.title)),
  ]);
  return [
    ...items.map((i) => ({ value: `catalog:${i.id}`, label: i.name })),
    ...eventRows.map((e) => ({ value: `event:${e.id}`, label: `${e.title} (event)` })),
  ];
}

/** Every code, newest first, in the owner's words: what it gives, to what, when, its uses and revenue. */
export async function listCodesForAdmin(db: Database, now: Date, holdMinutes: number) {
  const [rows, counts, choices] = await Promise.all([
    db
      .select()
      .from(discountCodes)
      .orderBy(sql`${discountCodes.id} desc`),
    codeUsesAndRevenue(db, now, holdMinutes),
    codeItemChoices(db),
  ]);
  const names = new Map(choices.map((c) => [c.value, c.label]));
  return rows.map((row) => {
    const counted = counts.get(row.id) ?? { uses: 0, revenueCents: 0 };
    return {
      id: row.id,
      code: row.code,
      gives: codeGives(row),
      appliesTo: codeAppliesTo(row, names),
      valid: codeValidity(row),
      uses: codeUses(counted.uses, row.totalUses),
      perEmail: row.usesPerEmail === null ? null : row.usesPerEmail,
      revenueCents: counted.revenueCents,
      active: row.active,
    };
  });
}

export async function findCodeForAdmin(db: Database, id: number): Promise<CodeRow | null> {
  const [row] = await db.select().from(discountCodes).where(eq(discountCodes.id, id)).limit(1);
  return row ?? null;
}

export type SaveCodeResult =
  { ok: true; id: number; created: boolean } | { ok: false; fieldErrors: Record<string, string> };

const takenMessage = (code: string) => `The code ${code} is already in use: choose another.`;

/** Adds or edits a code; the same code in any case is refused, and the change is logged in the same transaction. */
export async function saveCode(
  db: Database,
  args: { id: number | null; input: DiscountCodeInput; now: Date },
): Promise<SaveCodeResult> {
  const values = discountCodeRowValues(args.input);
  const { id, now } = args;
  try {
    return await db.transaction(async (tx): Promise<SaveCodeResult> => {
      const [clash] = await tx
        .select({ id: discountCodes.id })
        .from(discountCodes)
        .where(
          and(sql`upper(${discountCodes.code}) = ${values.code}`, id === null ? undefined : ne(discountCodes.id, id)),
        )
        .limit(1);
      if (clash) return { ok: false as const, fieldErrors: { code: takenMessage(values.code) } };
      if (id === null) {
        const [created] = await tx
          .insert(discountCodes)
          .values({ ...values, createdAt: now, updatedAt: now })
          .returning({ id: discountCodes.id });
        await recordAudit(
          tx,
          {
            action: "discount_code.create",
            entity: "discount_code",
            entityId: created!.id,
            summary: `Added discount code ${values.code}: ${codeGives(values)}`,
            after: values,
          },
          now,
        );
        return { ok: true as const, id: created!.id, created: true };
      }
      const [before] = await tx.select().from(discountCodes).where(eq(discountCodes.id, id)).for("update");
      if (!before) return { ok: false as const, fieldErrors: { form: "This code no longer exists." } };
      const changed = changedFields(before, values);
      await tx
        .update(discountCodes)
        .set({ ...values, updatedAt: now })
        .where(eq(discountCodes.id, id));
      if (changed.fields.length)
        await recordAudit(
          tx,
          {
            action: "discount_code.update",
            entity: "discount_code",
            entityId: id,
            summary: `Changed ${changed.fields.join(", ")} of code ${values.code}`,
            before: changed.before,
            after: changed.after,
          },
          now,
        );
      return { ok: true as const, id, created: false };
    });
  } catch (error) {
    // Two saves of the same new code at once: the unique index refuses the second.
    if (/discount_codes_code_idx|unique/i.test(String((error as Error).message ?? error)))
      return { ok: false, fieldErrors: { code: takenMessage(values.code) } };
    throw error;
  }
}
