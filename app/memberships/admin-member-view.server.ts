import type { Database } from "~/db/client.server";
import { howMemberPays } from "./card-subscriptions.server";
import { PAUSE_MONTHS } from "./card-pauses.server";
import { findMemberForAdmin } from "./members-admin.server";
import { paysInWords } from "./pays-words";

const iso = (at: Date | string | null | undefined) => (at ? new Date(at).toISOString() : null);

/** The owner's page of one member, as plain values for the page: undefined when there is no such member. */
export async function adminMemberView(db: Database, id: number) {
  const found = await findMemberForAdmin(db, id);
  if (!found) return undefined;
  const { member } = found;
  const pays = await howMemberPays(db, member.id);
  return {
    member: {
      id: member.id,
      name: member.name,
      email: member.email,
      phone: member.phone,
      tierName: found.tierName,
      tierPriceCents: found.tierPriceCents,
      nextTierName: found.nextTierName,
      status: member.status,
      paidUntil: member.paidUntil,
      joinedAt: iso(member.joinedAt)!,
      cancelledAt: iso(member.cancelledAt),
      pays: paysInWords(pays),
      byCard: pays.kind === "card",
      pausedUntil: pays.kind === "card" ? pays.pausedUntil : null,
    },
    pauseMonths: [...PAUSE_MONTHS],
    payments: found.payments.map((p) => ({
      id: p.id,
      kind: p.kind,
      orderId: p.orderId,
      reference: p.reference,
      tierName: p.tierName ?? p.tierSlug,
      amountCents: p.amountCents,
      startsOn: p.startsOn,
      endsOn: p.endsOn,
      note: p.note,
      createdAt: iso(p.createdAt)!,
    })),
    emails: found.emails.map((e) => ({ ...e, createdAt: iso(e.createdAt)!, sentAt: iso(e.sentAt) })),
  };
}

export type AdminMemberView = NonNullable<Awaited<ReturnType<typeof adminMemberView>>>;
