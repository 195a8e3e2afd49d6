import { asc, eq, sql, type SQL } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { catalogItems, events, membershipTiers, type NewsletterSegment } from "~/db/schema";
export { SEGMENT_RULES } from "./segment-rules";

/** The people a segment reaches: one row per address (lower case), with a name and the rule that allows it. */
export interface SegmentRecipient {
  email: string;
  name: string | null;
  basis: "consent" | "member" | "customer";
}

const list = (values: readonly (string | number)[]) =>
  sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  );

/** Nobody who refused (an unsubscribe, an untick on /account) is written to, whatever the segment. */
const notRefused = (email: SQL) =>
  sql`not exists (select 1 from subscribers r where r.email = ${email} and r.status = 'unsubscribed')`;

const PAID = sql`('paid', 'partially_refunded')`;

/**
 * The segment as one SELECT of (email, name, basis), for a count or for listing the recipients in
 * one insert. Each address once: a buyer of two of the chosen pieces is one recipient.
 */
export function segmentSelect(segment: NewsletterSegment): SQL {
  switch (segment.kind) {
    case "subscribers":
      return sql`select s.email, s.name, 'consent' as basis from subscribers s where s.status = 'subscribed'`;
    case "tiers":
      // The tiers promise monthly posts: every active member of them, unless she refused.
      return sql`select m.email, m.name, 'member' as basis from members m
        where m.status = 'active' and m.tier_slug in (${list(segment.tiers)}) and ${notRefused(sql`m.email`)}`;
    case "attendees":
      return sql`select distinct on (lower(o.customer_email)) lower(o.customer_email) as email,
          o.customer_first_name as name, 'customer' as basis
        from tickets t join orders o on o.id = t.order_id
        where t.event_id in (${list(segment.events)}) and not t.voided and o.status in ${PAID}
          and ${notRefused(sql`lower(o.customer_email)`)}
        order by lower(o.customer_email), o.created_at desc`;
    case "buyers":
      return sql`select distinct on (lower(o.customer_email)) lower(o.customer_email) as email,
          o.customer_first_name as name, 'customer' as basis
        from order_lines l join orders o on o.id = l.order_id
        where l.catalog_item_id in (${list(segment.products)}) and o.status in ${PAID}
          and ${notRefused(sql`lower(o.customer_email)`)}
        order by lower(o.customer_email), o.created_at desc`;
  }
}

export async function countSegment(db: Database, segment: NewsletterSegment): Promise<number> {
  const result = await db.execute(sql`select count(*)::int as n from (${segmentSelect(segment)}) q`);
  const rows = (result as unknown as { rows: { n: number }[] }).rows;
  return Number(rows[0]?.n ?? 0);
}

/** What the picker offers: the tiers, the events and the products, with how many each reaches. */
export async function segmentChoices(db: Database) {
  const [tiers, eventRows, products, subscriberCount] = await Promise.all([
    db
      .select({ slug: membershipTiers.slug, name: membershipTiers.name })
      .from(membershipTiers)
      .orderBy(asc(membershipTiers.sortOrder)),
    db.select({ id: events.id, title: events.title, dates: events.dates }).from(events).orderBy(asc(events.title)),
    db
      .select({ id: catalogItems.id, name: catalogItems.name })
      .from(catalogItems)
      .where(eq(catalogItems.kind, "product"))
      .orderBy(asc(catalogItems.name)),
    countSegment(db, { kind: "subscribers" }),
  ]);
  const counted = async <T>(rows: T[], segment: (row: T) => NewsletterSegment) =>
    Promise.all(rows.map(async (row) => ({ ...row, count: await countSegment(db, segment(row)) })));
  return {
    subscribers: subscriberCount,
    tiers: await counted(tiers, (t) => ({ kind: "tiers", tiers: [t.slug] })),
    events: await counted(eventRows, (e) => ({ kind: "attendees", events: [e.id] })),
    products: await counted(products, (p) => ({ kind: "buyers", products: [p.id] })),
  };
}

export type SegmentChoices = Awaited<ReturnType<typeof segmentChoices>>;
