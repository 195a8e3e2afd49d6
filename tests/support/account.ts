import { createHash } from "node:crypto";
import type { AppContext } from "~/context.server";
import type { DatabaseHandle } from "~/db/client.server";
import { memberPeriods, members, orders } from "~/db/schema";
import { routeAnswer } from "./route-answer";

export const BASE = "http://localhost:3000";

type Handler = (args: never) => unknown;

export function get(
  handler: Handler,
  context: AppContext,
  path: string,
  cookie?: string,
  params: Record<string, string> = {},
) {
  const request = new Request(`${BASE}${path}`, { headers: cookie ? { Cookie: cookie } : {} });
  return routeAnswer(() => handler({ request, context, params } as never));
}

export function post(
  handler: Handler,
  context: AppContext,
  path: string,
  form: Record<string, string>,
  cookie?: string,
  params: Record<string, string> = {},
) {
  const request = new Request(`${BASE}${path}`, {
    method: "POST",
    headers: {
      Origin: BASE,
      "Content-Type": "application/x-www-form-urlencoded",
      ...(cookie ? { Cookie: cookie } : {}),
    },
    body: new URLSearchParams(form),
  });
  return routeAnswer(() => handler({ request, context, params } as never));
}

/** The `name=value` part of a Set-Cookie header, for the next request's Cookie header. */
export const cookiePair = (setCookie: string | null) => (setCookie ?? "").split(";", 1)[0]!;

export const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** A member with one paid membership order and the period it bought. */
export async function memberWithPayment(
  handle: DatabaseHandle,
  who: { email: string; name: string; reference: string; paidUntil?: string },
) {
  const paidUntil = who.paidUntil ?? "2025-10-10";
  const [member] = await handle.db
    .insert(members)
    .values({
      email: who.email,
      name: who.name,
      phone: "082 555 0100",
      tierSlug: "style-starter",
      paidUntil,
      joinedAt: new Date("2025-09-10T08:00:00Z"),
    })
    .returning();
  const [order] = await handle.db
    .insert(orders)
    .values({
      reference: who.reference,
      orderType: "membership",
      itemName: "The Style Starter",
      amountCents: 15000,
      customerFirstName: who.name.split(" ")[0]!,
      customerLastName: who.name.split(" ").slice(1).join(" "),
      customerEmail: who.email,
      customerPhone: "082 555 0100",
      customerAddress: "",
      provider: "simulator",
      idempotencyKey: `account-test-${who.reference}`,
      status: "paid",
      completedAt: new Date("2025-09-10T08:00:00Z"),
      memberId: null,
    })
    .returning();
  await handle.db.insert(memberPeriods).values({
    memberId: member!.id,
    kind: "payment",
    orderId: order!.id,
    tierSlug: "style-starter",
    amountCents: 15000,
    startsOn: "2025-09-10",
    endsOn: paidUntil,
  });
  return { member: member!, order: order! };
}
