/**
 * The one pricing rule (issue 40): lines -> a member's perks and a discount code -> what is charged per
 * line, in integer cents. Pure: the server decides with it (checkout, bag, order, refund) and the pages
 * show what it decided. Each line takes the better of its perk and the code, never both; each line's
 * discount is rounded once, half up, so the total is the sum of the lines and no cent is made or lost.
 */
import { formatRand } from "~/lib/money";

export type LineKind = "product" | "service" | "ticket" | "workshop" | "membership";

export interface LineToPrice {
  /** The caller's key for the line (a bag line, an order line): handed back unchanged. */
  id: string;
  kind: LineKind;
  /** What the line sells, as a code's chosen items name it: "catalog:12", "ticket-option:4", "membership:glow-bee". */
  itemKey: string;
  /** The event a ticket or workshop line is for ("event:3"): a perk's free tickets may be for chosen events. */
  eventKey?: string;
  /** A membership line that starts a membership (a renewal is not a first month). */
  firstMembershipMonth?: boolean;
  quantity: number;
  /** The catalog's price of one unit, before any discount. */
  unitCents: number;
}

/** What an active member's tier gives, and how much of this month's free tickets she has used. */
export interface MemberPerks {
  tierName: string;
  /** Off workshops and event tickets, 0-100. */
  percentOffEvents: number;
  /** Off products, 0-100. */
  percentOffProducts: number;
  allEventsFree: boolean;
  freeTicketsPerMonth: number;
  /** "any", or the event keys the free tickets are for. */
  freeTicketEvents: "any" | string[];
  /** Free tickets already taken this calendar month (South African time), by paid or held orders. */
  freeTicketsUsedThisMonth: number;
}

export type CodeScope = "everything" | "products" | "events" | "first-membership-month" | { items: string[] };

/** A code that is valid now (dates, uses, on/off are checked before pricing): what it takes off, and from what. */
export interface DiscountCode {
  code: string;
  kind: "percent" | "fixed";
  /** Percent (1-100) or cents off the order. */
  amount: number;
  scope: CodeScope;
  /** The lines it applies to must come to at least this, before discounts. */
  minimumSpendCents: number;
}

export interface PricedLine {
  id: string;
  quantity: number;
  unitCents: number;
  /** unitCents x quantity. */
  listCents: number;
  discountCents: number;
  /** listCents - discountCents: what this line costs, and the most a refund of it returns. */
  chargedCents: number;
  /** In words, for the buyer and the owner: "10% Creative Bee", "Glow Bee: free ticket, 1 of 1 this month". */
  reason: string | null;
  source: "perk" | "code" | null;
  /** Units this line takes from the month's free tickets. */
  freeTickets: number;
}

export type CodeOutcome = "applied" | "not-better" | "nothing-applies" | "below-minimum";

export interface PricedOrder {
  lines: PricedLine[];
  listCents: number;
  discountCents: number;
  totalCents: number;
  /** What became of the code, when one was given. */
  code: { code: string; outcome: CodeOutcome; discountCents: number } | null;
}

const isEvent = (kind: LineKind) => kind === "ticket" || kind === "workshop";

/** round(numerator / denominator), halves up, in integers (both positive). */
function roundHalfUp(numerator: number, denominator: number): number {
  return Math.floor((2 * numerator + denominator) / (2 * denominator));
}

const percentOf = (cents: number, percent: number) => roundHalfUp(cents * percent, 100);

function inScope(line: LineToPrice, scope: CodeScope): boolean {
  if (line.kind === "membership" && !line.firstMembershipMonth) return false;
  if (scope === "everything") return true;
  if (scope === "products") return line.kind === "product";
  if (scope === "events") return isEvent(line.kind);
  if (scope === "first-membership-month") return line.kind === "membership";
  // A chosen event covers every ticket of it.
  return scope.items.includes(line.itemKey) || (!!line.eventKey && scope.items.includes(line.eventKey));
}

/** Each line's share of a fixed amount, in proportion to its list price, the shares summing to exactly the amount. */
function shareFixedAmount(amountCents: number, lists: number[]): number[] {
  const total = lists.reduce((sum, cents) => sum + cents, 0);
  const amount = Math.min(amountCents, total);
  if (amount === 0) return lists.map(() => 0);
  const exact = lists.map((cents) => (cents * amount) / total);
  const shares = exact.map(Math.floor);
  let left = amount - shares.reduce((sum, cents) => sum + cents, 0);
  // The cents the floors left go to the lines that lost the most to them (the first among equals).
  const order = exact.map((value, i) => [value - Math.floor(value), i] as const).sort((a, b) => b[0] - a[0]);
  for (const [, i] of order) {
    if (left === 0) break;
    shares[i]! += 1;
    left -= 1;
  }
  return shares;
}

interface Offer {
  discountCents: number;
  reason: string;
  freeTickets: number;
}

/** The perk's price of each line, taking free tickets in line order until the month's are used. */
function perkOffers(lines: LineToPrice[], perks: MemberPerks | null): (Offer | null)[] {
  if (!perks) return lines.map(() => null);
  let used = perks.freeTicketsUsedThisMonth;
  return lines.map((line) => {
    const list = line.unitCents * line.quantity;
    if (line.kind === "product" && perks.percentOffProducts > 0) {
      return {
        discountCents: percentOf(list, perks.percentOffProducts),
        reason: `${perks.percentOffProducts}% ${perks.tierName}`,
        freeTickets: 0,
      };
    }
    if (!isEvent(line.kind)) return null;
    if (perks.allEventsFree)
      return { discountCents: list, reason: `${perks.tierName}: all events free`, freeTickets: 0 };
    const freeFits =
      perks.freeTicketEvents === "any" || (!!line.eventKey && perks.freeTicketEvents.includes(line.eventKey));
    const free = freeFits ? Math.min(Math.max(0, perks.freeTicketsPerMonth - used), line.quantity) : 0;
    const rest = (line.quantity - free) * line.unitCents;
    const offRest = perks.percentOffEvents > 0 ? percentOf(rest, perks.percentOffEvents) : 0;
    if (free === 0 && offRest === 0) return null;
    used += free;
    const words = [
      free > 0
        ? `${perks.tierName}: ${free === 1 ? "free ticket" : `${free} free tickets`}, ` +
          `${used} of ${perks.freeTicketsPerMonth} this month`
        : null,
      offRest > 0 ? `${perks.percentOffEvents}% ${perks.tierName}` : null,
    ].filter(Boolean);
    return { discountCents: free * line.unitCents + offRest, reason: words.join("; "), freeTickets: free };
  });
}

function codeOffers(
  lines: LineToPrice[],
  code: DiscountCode | null,
): { offers: (Offer | null)[]; outcome: CodeOutcome | null } {
  if (!code) return { offers: lines.map(() => null), outcome: null };
  const applies = lines.map((line) => inScope(line, code.scope));
  const lists = lines.map((line, i) => (applies[i] ? line.unitCents * line.quantity : 0));
  const spend = lists.reduce((sum, cents) => sum + cents, 0);
  if (spend === 0) return { offers: lines.map(() => null), outcome: "nothing-applies" };
  if (spend < code.minimumSpendCents) return { offers: lines.map(() => null), outcome: "below-minimum" };
  const label = code.code.toUpperCase();
  const discounts =
    code.kind === "percent"
      ? lists.map((cents) => percentOf(cents, code.amount))
      : shareFixedAmount(code.amount, lists);
  const reason = code.kind === "percent" ? `${code.amount}% ${label}` : `${label}: ${formatRand(code.amount)} off`;
  return {
    offers: discounts.map((cents, i) =>
      applies[i] && cents > 0 ? { discountCents: cents, reason, freeTickets: 0 } : null,
    ),
    outcome: "applied",
  };
}

/**
 * Prices the lines: each takes its perk or the code, whichever leaves it cheaper (the perk on a tie, so
 * a code's use is not spent for nothing). A fixed code's share of a line that takes its perk instead is
 * not moved to other lines: the buyer sees each line's price, and it does not change with the others.
 */
export function priceLines(
  lines: LineToPrice[],
  offers: { perks?: MemberPerks | null; code?: DiscountCode | null } = {},
): PricedOrder {
  const perk = perkOffers(lines, offers.perks ?? null);
  const { offers: coded, outcome } = codeOffers(lines, offers.code ?? null);
  let codeDiscount = 0;
  const priced = lines.map((line, i): PricedLine => {
    const listCents = line.unitCents * line.quantity;
    const byPerk = perk[i];
    const byCode = coded[i];
    const useCode = !!byCode && byCode.discountCents > (byPerk?.discountCents ?? 0);
    const chosen = useCode ? byCode : byPerk;
    const discountCents = Math.min(listCents, chosen?.discountCents ?? 0);
    if (useCode) codeDiscount += discountCents;
    return {
      id: line.id,
      quantity: line.quantity,
      unitCents: line.unitCents,
      listCents,
      discountCents,
      chargedCents: listCents - discountCents,
      reason: chosen ? chosen.reason : null,
      source: chosen ? (useCode ? "code" : "perk") : null,
      freeTickets: !useCode && byPerk ? byPerk.freeTickets : 0,
    };
  });
  const listCents = priced.reduce((sum, line) => sum + line.listCents, 0);
  const discountCents = priced.reduce((sum, line) => sum + line.discountCents, 0);
  return {
    lines: priced,
    listCents,
    discountCents,
    totalCents: listCents - discountCents,
    code: offers.code
      ? {
          code: offers.code.code.toUpperCase(),
          outcome: outcome === "applied" && codeDiscount === 0 ? "not-better" : outcome!,
          discountCents: codeDiscount,
        }
      : null,
  };
}
