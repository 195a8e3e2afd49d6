import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PayfastConfig } from "~/config.server";
import { createPayfastSubscriptionsApi } from "~/payments/payfast/api.server";
import { subscriptionForm } from "~/payments/payfast/form.server";
import { readItn, sourceAllowed, validateItn } from "~/payments/payfast/itn.server";
import { SubscriptionApiError } from "~/payments/payfast/subscriptions";
import { startFakePayfast, type FakePayfast } from "../fakes/payfast-server";

// The PayFast adapter against the fake written from /work/shared/payments-payfast.md.
let fake: FakePayfast;
let config: PayfastConfig;
const delivered: string[] = [];

beforeAll(async () => {
  fake = await startFakePayfast();
  fake.deliver = async (_url, body) => {
    delivered.push(body);
    return 200;
  };
  config = {
    merchantId: fake.merchantId,
    merchantKey: fake.merchantKey,
    passphrase: fake.passphrase,
    processUrl: fake.processUrl,
    validateUrl: fake.validateUrl,
    apiUrl: fake.apiUrl,
    sandbox: false,
    itnSources: ["127.0.0.1/32"],
    validateTimeoutMs: 500,
  };
});
afterAll(async () => {
  await fake?.close();
});

const form = () =>
  subscriptionForm(config, {
    checkoutRef: "0b9c2f7e-1111-4222-8333-944455556666",
    memberRef: "member 42",
    amountCents: 45000,
    itemName: "Style Circle Membership (it's *monthly*)",
    firstName: "Nomvula",
    lastName: "van der Merwe-Dlamini",
    email: "nomvula+style@example.test",
    billingDate: "2025-03-31",
    returnUrl: "http://localhost/order-confirmation?status=success",
    cancelUrl: "http://localhost/order-confirmation?status=cancelled",
    notifyUrl: "http://localhost/api/payfast/itn",
  });

describe("the subscription form", () => {
  it("is accepted by the process URL, and a subscription is made on Pay with a signed COMPLETE ITN", async () => {
    const built = form();
    const fields = Object.fromEntries(built.fields);
    expect(built.action).toBe(fake.processUrl);
    expect(fields).toMatchObject({ amount: "450.00", recurring_amount: "450.00", frequency: "3", cycles: "0" });
    expect(fields.item_name).not.toMatch(/[!'()*~]/);
    const page = await fake.submit(built.fields);
    expect(page.status).toBe(200);
    const paid = await fake.pay(page.checkoutId!);
    expect(paid.returnUrl).toContain("status=success");
    const read = readItn(paid.itn.body, "127.0.0.1", config);
    expect(read.ok).toBe(true);
    if (read.ok) {
      expect(read.notification).toMatchObject({ status: "COMPLETE", amountCents: 45000, token: paid.token });
      expect(read.notification.checkoutRef).toBe(fields.m_payment_id);
    }
    expect(fake.subscriptions.get(paid.token)?.runDate).toBe("2025-04-30");
  });

  it("is refused by the process URL when its signature is wrong", async () => {
    const built = form().fields.map(([k, v]): [string, string] => [k, k === "amount" ? "4.50" : v]);
    const page = await fake.submit(built);
    expect(page.status).toBe(400);
    expect(page.text).toMatch(/not according to specification/);
  });
});

describe("reading an ITN", () => {
  it("refuses a forged signature, a tampered amount and an address outside the list", async () => {
    const page = await fake.submit(form().fields);
    const { itn } = await fake.pay(page.checkoutId!);
    expect(readItn(itn.body.replace("amount_gross=450.00", "amount_gross=4.50"), "127.0.0.1", config)).toMatchObject({
      ok: false,
      status: 400,
    });
    expect(readItn(itn.body, "127.0.0.1", { ...config, passphrase: "wrong" })).toMatchObject({ ok: false });
    expect(readItn(itn.body, "203.0.113.9", config)).toMatchObject({ ok: false, status: 403 });
    expect(readItn(itn.body, "::ffff:127.0.0.1", config).ok).toBe(true);
  });

  it("matches sources by address and CIDR range", () => {
    const documented = ["197.97.145.144/28", "144.126.193.139"];
    expect(sourceAllowed("197.97.145.150", documented)).toBe(true);
    expect(sourceAllowed("197.97.145.160", documented)).toBe(false);
    expect(sourceAllowed("144.126.193.139", documented)).toBe(true);
    expect(sourceAllowed("not an address", documented)).toBe(false);
  });

  it("asks the validate URL: VALID for what was sent, INVALID otherwise, unavailable on 500 or a timeout", async () => {
    const page = await fake.submit(form().fields);
    const { itn } = await fake.pay(page.checkoutId!);
    expect(await validateItn(itn.pairs, config)).toBe("VALID");
    const forged = itn.pairs.map(([k, v]): [string, string] => [k, k === "pf_payment_id" ? "999" : v]);
    expect(await validateItn(forged, config)).toBe("INVALID");
    fake.validate.status500 = true;
    expect(await validateItn(itn.pairs, config)).toBe("unavailable");
    fake.validate.status500 = false;
    fake.validate.delayMs = 1_000;
    expect(await validateItn(itn.pairs, config)).toBe("unavailable");
    fake.validate.delayMs = 0;
  });
});

describe("the subscriptions API", () => {
  it("fetches, updates, pauses, unpauses and cancels, each call signed", async () => {
    const page = await fake.submit(form().fields);
    const { token } = await fake.pay(page.checkoutId!);
    const api = createPayfastSubscriptionsApi(config);
    expect(await api.fetch(token)).toMatchObject({
      active: true,
      statusText: "ACTIVE",
      amountCents: 45000,
      runDate: "2025-04-30",
    });
    await api.updateAmount(token, 65000);
    await api.moveRunDate(token, "2025-04-28");
    expect(await api.fetch(token)).toMatchObject({ amountCents: 65000, runDate: "2025-04-28" });
    await api.pause(token, 1);
    expect((await api.fetch(token)).active).toBe(false);
    await api.unpause(token);
    await api.cancel(token);
    expect(await api.fetch(token)).toMatchObject({ active: false, statusText: "CANCELLED" });
    expect(fake.apiCalls.filter((c) => c.token === token).every((c) => c.status === 200)).toBe(true);
  });

  it("is refused with PayFast's message when the signature is wrong", async () => {
    const page = await fake.submit(form().fields);
    const { token } = await fake.pay(page.checkoutId!);
    const api = createPayfastSubscriptionsApi({ ...config, passphrase: "not-ours" });
    await expect(api.fetch(token)).rejects.toThrow(SubscriptionApiError);
    await expect(api.cancel(token)).rejects.toThrow("Merchant authorisation failed");
  });
});
