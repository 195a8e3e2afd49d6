import { asc, eq } from "drizzle-orm";
import { changedFields, recordAudit } from "~/admin/audit.server";
import type { Database } from "~/db/client.server";
import { membershipTiers } from "~/db/schema";
import { tenfoldPriceChange } from "~/lib/money";
import { tierRowValues, type TierInput } from "./tier-schema";

/** Every tier of both sets, current plans first, for /admin/memberships. */
export function listTiersForAdmin(db: Database) {
  return db
    .select()
    .from(membershipTiers)
    .orderBy(asc(membershipTiers.tierSet), asc(membershipTiers.sortOrder), asc(membershipTiers.slug));
}

const AUDITED = ["name", "priceCents", "priceText", "description", "features", "visible", "sortOrder"] as const;
const auditView = (row: Record<string, unknown>) => Object.fromEntries(AUDITED.map((k) => [k, row[k]]));

/**
 * Saves one tier's form. A tier is never created or deleted here: orders keep pointing at its slug,
 * so a plan the owner no longer offers is hidden instead. `missing` when the slug names no tier; a
 * tenfold price change is refused until the owner confirms it.
 */
export async function saveTier(
  db: Database,
  input: TierInput,
  now: Date,
): Promise<
  | { ok: true; changed: string[] }
  | { ok: false; missing: true }
  | { ok: false; missing: false; fieldErrors: Record<string, string>; confirm: Record<string, number> }
> {
  const values = tierRowValues(input);
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(membershipTiers).where(eq(membershipTiers.slug, input.slug)).for("update");
    if (!before) return { ok: false as const, missing: true as const };
    // A tenfold change is most often a separator read the wrong way: it waits for a second save (decision 103).
    const question = tenfoldPriceChange(before.priceCents, values.priceCents);
    if (question && input.confirmPrice !== String(values.priceCents)) {
      return {
        ok: false as const,
        missing: false as const,
        fieldErrors: { price: question },
        confirm: { price: values.priceCents! },
      };
    }
    const diff = changedFields(auditView(before), values);
    if (!diff.fields.length) return { ok: true as const, changed: [] };
    await tx
      .update(membershipTiers)
      .set({ ...values, updatedAt: now })
      .where(eq(membershipTiers.slug, input.slug));
    await recordAudit(
      tx,
      {
        action: "membership.update",
        entity: "membership",
        entityId: input.slug,
        summary: `Changed ${diff.fields.join(", ")} of ${values.name}`,
        before: diff.before,
        after: diff.after,
      },
      now,
    );
    return { ok: true as const, changed: diff.fields };
  });
}
