import { asc, eq, inArray } from "drizzle-orm";
import { changedFields, recordAudit } from "~/admin/audit.server";
import type { Database } from "~/db/client.server";
import { events, membershipTiers } from "~/db/schema";
import { tenfoldPriceChange } from "~/lib/money";
import { tierRowValues, type TierInput } from "./tier-schema";

/** Every tier of both sets, current plans first, for /admin/memberships. */
export function listTiersForAdmin(db: Database) {
  return db
    .select()
    .from(membershipTiers)
    .orderBy(asc(membershipTiers.tierSet), asc(membershipTiers.sortOrder), asc(membershipTiers.slug));
}

/** The events a tier's free tickets may be for, in the order the site lists them. */
export function listEventsForPerks(db: Database) {
  return db
    .select({ id: events.id, title: events.title })
    .from(events)
    .where(eq(events.archived, false))
    .orderBy(asc(events.sortOrder), asc(events.id));
}

const AUDITED = [
  "name",
  "priceCents",
  "priceText",
  "description",
  "features",
  "visible",
  "sortOrder",
  "perkPercentOffEvents",
  "perkFreeTicketsPerMonth",
  "perkFreeTicketEvents",
  "perkAllEventsFree",
  "perkPercentOffProducts",
] as const;
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
    if (values.perkFreeTicketEvents !== "any") {
      const known = await tx
        .select({ id: events.id })
        .from(events)
        .where(inArray(events.id, values.perkFreeTicketEvents));
      if (known.length !== values.perkFreeTicketEvents.length) {
        return {
          ok: false as const,
          missing: false as const,
          fieldErrors: { freeTicketEvents: "Choose events from the list." } as Record<string, string>,
          confirm: {} as Record<string, number>,
        };
      }
    }
    // A tenfold change is most often a separator read the wrong way: it waits for a second save (decision 103).
    const question = tenfoldPriceChange(before.priceCents, values.priceCents);
    if (question && input.confirmPrice !== String(values.priceCents)) {
      return {
        ok: false as const,
        missing: false as const,
        fieldErrors: { price: question } as Record<string, string>,
        confirm: { price: values.priceCents! } as Record<string, number>,
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
