import { eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { memberPeriods, members, membershipTiers } from "~/db/schema";
import { dayMonthYear } from "~/lib/dates-in-words";
import { statusInWords } from "./member-status-words";
import { southAfricanDay, statusOn } from "./periods";

/** The membership a paid order gave: its member, tier and paid-until day as they are now. */
export async function membershipOfOrder(db: Pick<Database, "select">, orderId: string, now: Date) {
  const [row] = await db
    .select({ member: members, tierName: membershipTiers.name })
    .from(memberPeriods)
    .innerJoin(members, eq(members.id, memberPeriods.memberId))
    .leftJoin(membershipTiers, eq(membershipTiers.slug, members.tierSlug))
    .where(eq(memberPeriods.orderId, orderId))
    .limit(1);
  if (!row) return undefined;
  const today = southAfricanDay(now);
  const status = statusOn(row.member, today);
  return {
    memberId: row.member.id,
    tierName: row.tierName ?? row.member.tierSlug,
    paidUntil: dayMonthYear(row.member.paidUntil),
    status: statusInWords(status, row.member.paidUntil, today).label,
  };
}
