import type { AppConfig, PayfastConfig } from "~/config.server";
import type { DatabaseHandle } from "~/db/client.server";
import type { Clock } from "~/lib/clock";
import { findMemberByEmail } from "~/memberships/member-row.server";
import { payfastCheckoutForm } from "~/orders/payfast-checkout.server";
import { handlePayfastItn } from "~/orders/payfast-itn.server";
import type { FakePayfast } from "../fakes/payfast-server";
import { checkout } from "./checkout";
import type { testContext } from "./test-db";

type Context = ReturnType<typeof testContext>;

/** The shop's PayFast settings pointing at the fake, notifications accepted from loopback only. */
export function payfastConfigFor(fake: FakePayfast): PayfastConfig {
  return {
    merchantId: fake.merchantId,
    merchantKey: fake.merchantKey,
    passphrase: fake.passphrase,
    processUrl: fake.processUrl,
    validateUrl: fake.validateUrl,
    apiUrl: fake.apiUrl,
    sandbox: false,
    itnSources: ["127.0.0.1/32"],
    validateTimeoutMs: 300,
  };
}

/** The fake's notifications go to the shop's ITN handler, as PayFast's would reach /api/payfast/itn. */
export function deliverItnsTo(fake: FakePayfast, context: () => Context, check?: (url: string) => void): void {
  fake.deliver = async (url, body) => {
    check?.(url);
    const request = new Request(url, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body,
    });
    return (await handlePayfastItn(request, context())).status;
  };
}

let people = 0;

/**
 * A buyer joins `tier` by card on `day`: /checkout, the shop's PayFast form and the fake's Pay. Each call is a
 * new person (`label` keeps one test file's addresses apart from another's).
 */
export async function joinByCard(
  setup: {
    handle: DatabaseHandle;
    fake: FakePayfast;
    clock: Clock & { set(at: string): void };
    context: () => Context;
  },
  options: { day: string; label: string; tier?: string; config: Partial<AppConfig> },
) {
  const { handle, fake, clock, context } = setup;
  clock.set(`${options.day}T09:00:00+02:00`);
  const email = `${options.label}${++people}-${Date.now()}@example.com`;
  const answer = await checkout(handle, "membership", options.tier ?? "style-starter", {
    config: options.config,
    clock,
    fields: {
      firstName: "Nomvula",
      lastName: `Dlamini-Mahlangu ${people}`,
      email,
      phone: "+27 82 555 0199",
      address: "3 Long Street",
    },
  });
  if (!(answer instanceof Response)) throw new Error(JSON.stringify(answer.toast));
  const orderId = /^\/payments\/payfast\/([0-9a-f-]{36})$/.exec(answer.headers.get("Location") ?? "")?.[1];
  if (!orderId) throw new Error(`unexpected redirect ${answer.headers.get("Location")}`);
  const form = await payfastCheckoutForm(context(), orderId);
  const page = await fake.submit(form!.form.fields);
  if (page.status !== 200) throw new Error(`the fake's payment page answered ${page.status}`);
  const paid = await fake.pay(page.checkoutId!);
  const member = await findMemberByEmail(handle.db, email);
  return { orderId, token: paid.token, firstItn: paid.itn, member: member!, email };
}
