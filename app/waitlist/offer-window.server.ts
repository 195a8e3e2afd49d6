import { eq } from "drizzle-orm";
import * as z from "zod/mini";
import { recordAudit } from "~/admin/audit.server";
import type { Database } from "~/db/client.server";
import { appSettings } from "~/db/schema";

/** How long an offered seat is held for the person offered, unless the owner set another window (issue 39). */
export const DEFAULT_OFFER_HOURS = 24;
const KEY = "waitlist.offerHours";

/** The owner's field on the Settings page: whole hours, from one to a week. */
export const offerWindowSchema = z.object({
  offerHours: z.pipe(
    z.string().check(z.trim(), z.regex(/^[0-9]{1,3}$/, "Offer window must be a whole number of hours from 1 to 168.")),
    z.pipe(
      z.transform((v: string) => Number(v)),
      z
        .number()
        .check(
          z.minimum(1, "Offer window must be a whole number of hours from 1 to 168."),
          z.maximum(168, "Offer window must be a whole number of hours from 1 to 168."),
        ),
    ),
  ),
});

export async function offerWindowHours(db: Pick<Database, "select">): Promise<number> {
  const [row] = await db.select({ value: appSettings.value }).from(appSettings).where(eq(appSettings.key, KEY));
  const hours = Number(row?.value);
  return Number.isInteger(hours) && hours >= 1 && hours <= 168 ? hours : DEFAULT_OFFER_HOURS;
}

/** Stores the window; offers made from now on use it (one already made keeps its expiry). */
export async function saveOfferWindow(db: Database, hours: number, now: Date): Promise<boolean> {
  return db.transaction(async (tx) => {
    const before = await offerWindowHours(tx);
    if (before === hours) return false;
    await tx
      .insert(appSettings)
      .values({ key: KEY, value: String(hours), updatedAt: now })
      .onConflictDoUpdate({ target: appSettings.key, set: { value: String(hours), updatedAt: now } });
    await recordAudit(
      tx,
      {
        action: "settings.update",
        entity: "settings",
        entityId: KEY,
        summary: `Changed the waiting list's offer window from ${before} to ${hours} hours`,
        before: { offerHours: before },
        after: { offerHours: hours },
      },
      now,
    );
    return true;
  });
}
