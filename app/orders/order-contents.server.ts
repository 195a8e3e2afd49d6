import { asc, eq } from "drizzle-orm";
import type { AppContext } from "~/context.server";
import { orderLines } from "~/db/schema";
import { formatRand } from "~/lib/money";
import { createMemberSession } from "~/memberships/member-session.server";
import { membershipOfOrder } from "~/memberships/order-membership.server";
import { orderTicketViews } from "~/tickets/ticket-views.server";
import { stateFromOrder, type ConfirmationState } from "./confirmation.server";
import { buyerFulfilmentWords } from "./line-fulfilment";
import { lineCountsOfOrders } from "./line-fulfilment.server";
import { isBuyerBrowser, orderIdForPageToken, orderPagePath } from "./order-access.server";
import { findOrder, isOrderId, type OrderRow } from "./orders.server";

type ContentsContext = Pick<AppContext, "db" | "config" | "clock">;

/** What a paid order holds, as its buyer sees it on the confirmation page and the order page. */
export async function orderContents(context: ContentsContext, order: OrderRow) {
  const state = stateFromOrder(order.status);
  const paid = state === "success";
  const [tickets, membership, lines, counts] = await Promise.all([
    paid ? orderTicketViews(context.db, order.id, context.config.siteUrl) : [],
    paid && order.orderType === "membership" ? membershipOfOrder(context.db, order.id, context.clock.now()) : undefined,
    context.db
      .select({
        name: orderLines.displayName,
        quantity: orderLines.quantity,
        unitPriceCents: orderLines.unitPriceCents,
      })
      .from(orderLines)
      .where(eq(orderLines.orderId, order.id))
      .orderBy(asc(orderLines.id)),
    paid ? lineCountsOfOrders(context.db, [order.id]) : undefined,
  ]);
  return {
    state,
    reference: order.reference,
    itemName: order.itemName,
    // A bag's order lists its lines (issue 39); an order of one line is named by its item, as before.
    lines:
      lines.length > 1
        ? lines.map((l) => ({ name: l.name, quantity: l.quantity, unitPrice: formatRand(l.unitPriceCents) }))
        : [],
    amount: formatRand(order.amountCents),
    orderType: order.orderType,
    // Whether her products are on their way, each line marked on its own (issue 39).
    fulfilment: counts
      ? buyerFulfilmentWords({
          orderType: order.orderType,
          fulfilmentMethod: order.fulfilmentMethod,
          lines: counts.get(order.id) ?? {
            sent: order.fulfilmentStatus === "fulfilled" ? 1 : 0,
            waiting: order.fulfilmentStatus === "fulfilled" ? 0 : 1,
            refunded: 0,
          },
        })
      : null,
    tickets,
    membership: membership
      ? { tierName: membership.tierName, paidUntil: membership.paidUntil, status: membership.status }
      : null,
  };
}

export type OrderContents = Awaited<ReturnType<typeof orderContents>>;

/**
 * What the buyer's own browser sees besides the spec's confirmation: the order's contents, the link to
 * its private page and, for a membership, the way into /account. Another browser (a shared link, the
 * analytics' order id) sees none of it: the order id is not a secret.
 */
export async function buyerConfirmation(
  request: Request,
  context: ContentsContext,
  orderId: string | null,
  state: ConfirmationState,
) {
  if (state !== "success" || !isOrderId(orderId) || !(await isBuyerBrowser(request, context, orderId))) return null;
  const order = await findOrder(context.db, orderId);
  if (!order) return null;
  const contents = await orderContents(context, order);
  if (contents.state !== "success") return null;
  return {
    contents,
    orderPagePath: orderPagePath(context.config.sessionSecret, order.id),
    canEnterAccount: contents.membership !== null,
  };
}

export type BuyerConfirmation = NonNullable<Awaited<ReturnType<typeof buyerConfirmation>>>;

export const ENTER_ACCOUNT_REFUSED =
  'This browser cannot open the account for this order any more. Use "Email me a sign-in link" on the account page instead.';

/**
 * Signs the member of a paid membership order in, from the browser that bought it, while that
 * browser's binding lasts: the order must be paid, and only its own member is signed in.
 */
export async function enterAccountAsBuyer(
  request: Request,
  context: ContentsContext,
  orderId: string | null | undefined,
): Promise<{ ok: true; cookie: string } | { ok: false; message: string }> {
  const order = isOrderId(orderId) ? await findOrder(context.db, orderId) : undefined;
  if (!order || stateFromOrder(order.status) !== "success" || order.orderType !== "membership")
    return { ok: false, message: ENTER_ACCOUNT_REFUSED };
  if (!(await isBuyerBrowser(request, context, order.id))) return { ok: false, message: ENTER_ACCOUNT_REFUSED };
  const membership = await membershipOfOrder(context.db, order.id, context.clock.now());
  if (!membership) return { ok: false, message: ENTER_ACCOUNT_REFUSED };
  return { ok: true, cookie: await createMemberSession(context.db, context, membership.memberId) };
}

/** Looking orders up is rate-limited per address, like tickets: guessing a 192-bit token is hopeless as well as slow. */
export const ORDER_PAGE_RATE_LIMIT = { bucket: "order-page", limit: 30, windowMs: 10 * 60_000 };

/**
 * The private order page: whoever holds the link sees the order (no customer details beyond the ticket
 * holder's name); only the buyer's own browser is offered the way into /account.
 */
export async function privateOrderPage(request: Request, context: ContentsContext, token: string) {
  const orderId = await orderIdForPageToken(context.db, token);
  const order = orderId ? await findOrder(context.db, orderId) : undefined;
  if (!order) return undefined;
  const contents = await orderContents(context, order);
  const canEnterAccount = contents.membership !== null && (await isBuyerBrowser(request, context, order.id));
  return { contents, canEnterAccount };
}
