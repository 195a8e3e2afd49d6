import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import {
  apiSignature,
  FORM_FIELD_ORDER,
  formSignature,
  itnParamString,
  itnSignature,
  type FormField,
} from "~/payments/payfast/signature";

/**
 * A fake PayFast on 127.0.0.1, written from /work/shared/payments-payfast.md §6: the process URL (checks
 * the form and its signature, then Pay / Fail / Cancel), signed ITNs delivered to the checkout's
 * notify_url (retried until answered 200), the validate endpoint, and the subscriptions API with its
 * signature check. Test hooks renew, fail a renewal, cancel as the buyer, replay, reorder and tamper.
 */
export interface FakeSubscription {
  token: string;
  form: Record<string, string>;
  amountCents: number;
  runDate: string;
  status: 1 | 2 | 3;
  statusText: "ACTIVE" | "PAUSED" | "CANCELLED" | "LOCKED";
  cyclesComplete: number;
  failedRenewals: number;
  /** Charges still to skip after a `pause` with `cycles`. */
  pausedCycles: number;
}

export interface SentItn {
  body: string;
  pairs: [string, string][];
  url: string;
  /** The answers it got, one per try. */
  answers: number[];
}

export interface ApiCall {
  method: string;
  token: string;
  action: string;
  body: Record<string, unknown>;
  status: number;
}

export interface FakePayfast {
  base: string;
  processUrl: string;
  validateUrl: string;
  apiUrl: string;
  merchantId: string;
  merchantKey: string;
  passphrase: string;
  subscriptions: Map<string, FakeSubscription>;
  itns: SentItn[];
  apiCalls: ApiCall[];
  /** Set by tests: how an ITN reaches the app (by default a POST to notify_url). Returns the status. */
  deliver: (url: string, body: string) => Promise<number>;
  /** Validate endpoint switches: answer INVALID, wait, or fail with 500. */
  validate: { invalid: boolean; delayMs: number; status500: boolean };
  /** `cancel` through the API also sends a CANCELLED ITN [U]. */
  cancelSendsItn: boolean;
  /** Posts a payment form as the buyer's browser does; the answer is the process page's status and id. */
  submit(fields: [string, string][]): Promise<{ status: number; text: string; checkoutId?: string }>;
  /** Pay: the subscription is made, its COMPLETE ITN delivered (retried until 200), then the return URL. */
  pay(checkoutId: string, at?: string): Promise<{ token: string; returnUrl: string; itn: SentItn }>;
  /** Fail: no ITN, an error page. Cancel: the cancel URL. */
  fail(checkoutId: string): void;
  cancelCheckout(checkoutId: string): string;
  /** The next month's charge went through: a COMPLETE ITN with a new pf_payment_id, run_date a month on. */
  renew(token: string, options?: { amountGross?: string; deliver?: boolean }): Promise<SentItn>;
  /** The next month's charge failed: no ITN; after five failures `fetch` says LOCKED. */
  renewFail(token: string): void;
  /** A run date passes in a pause: no charge, no ITN; after the last paused cycle it is ACTIVE again. */
  skipPausedCycle(token: string): void;
  /** The buyer cancelled in PayFast's pages: a CANCELLED ITN. */
  buyerCancel(token: string): Promise<SentItn>;
  /** Delivers a sent ITN again, as PayFast's retries do. */
  replay(itn: SentItn): Promise<number>;
  /** A signed ITN for `token` not yet delivered (to deliver out of order). */
  prepareRenewal(token: string, options?: { amountGross?: string }): SentItn;
  close(): Promise<void>;
}

const addMonth = (day: string) => {
  const [y, m, d] = day.split("-").map(Number) as [number, number, number];
  const last = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  return new Date(Date.UTC(y, m, Math.min(d, last))).toISOString().slice(0, 10);
};

const REQUIRED: FormField[] = [
  "merchant_id",
  "merchant_key",
  "amount",
  "item_name",
  "subscription_type",
  "frequency",
  "cycles",
];

export async function startFakePayfast(
  options: { merchantId?: string; merchantKey?: string; passphrase?: string } = {},
): Promise<FakePayfast> {
  const merchantId = options.merchantId ?? "10000100";
  const merchantKey = options.merchantKey ?? "46f0cd694581a";
  const passphrase = options.passphrase ?? "jt7NOE43FZPn";
  const checkouts = new Map<string, Record<string, string>>();
  const subscriptions = new Map<string, FakeSubscription>();
  const itns: SentItn[] = [];
  const apiCalls: ApiCall[] = [];
  let paymentIds = 1_000_000;

  function makeItn(
    form: Record<string, string>,
    fields: { status: string; token: string; amountGross: string; billingDate: string },
  ): SentItn {
    const gross = Number(fields.amountGross);
    const fee = -Math.round(gross * 3.5) / 100;
    const pairs: [string, string][] = [
      ["m_payment_id", form.m_payment_id ?? ""],
      ["pf_payment_id", String(++paymentIds)],
      ["payment_status", fields.status],
      ["item_name", form.item_name ?? ""],
      ["item_description", form.item_description ?? ""],
      ["amount_gross", fields.amountGross],
      ["amount_fee", fee.toFixed(2)],
      ["amount_net", (gross + fee).toFixed(2)],
      ...[1, 2, 3, 4, 5].map((n): [string, string] => [`custom_str${n}`, form[`custom_str${n}`] ?? ""]),
      ...[1, 2, 3, 4, 5].map((n): [string, string] => [`custom_int${n}`, form[`custom_int${n}`] ?? ""]),
      ["name_first", form.name_first ?? ""],
      ["name_last", form.name_last ?? ""],
      ["email_address", form.email_address ?? ""],
      ["merchant_id", merchantId],
      ["token", fields.token],
      ["billing_date", fields.billingDate],
    ];
    pairs.push(["signature", itnSignature(pairs, passphrase)]);
    return { body: new URLSearchParams(pairs).toString(), pairs, url: form.notify_url ?? "", answers: [] };
  }

  async function send(itn: SentItn, tries = 3): Promise<number> {
    itns.push(itn);
    let status = 0;
    for (let i = 0; i < tries; i++) {
      status = await fake.deliver(itn.url, itn.body).catch(() => 0);
      itn.answers.push(status);
      if (status === 200) break;
    }
    return status;
  }

  function checkForm(fields: [string, string][]): string | null {
    const values = Object.fromEntries(fields) as Record<string, string>;
    const missing = REQUIRED.filter((k) => !values[k]);
    if (missing.length) return `missing ${missing.join(", ")}`;
    if (values.merchant_id !== merchantId || values.merchant_key !== merchantKey) return "merchant_id or merchant_key";
    const known = new Set<string>([...FORM_FIELD_ORDER, "signature"]);
    const unknown = fields.filter(([k]) => !known.has(k)).map(([k]) => k);
    if (unknown.length) return `unknown ${unknown.join(", ")}`;
    if (!values.signature) return "a subscription needs a passphrase and a signature";
    if (values.signature !== formSignature(values, passphrase)) return "signature";
    if (Number(values.amount) < 5) return "amount below R5.00";
    return null;
  }

  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString("utf8");
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const reply = (status: number, body: string, type = "text/plain") => {
      res.writeHead(status, { "Content-Type": type });
      res.end(body);
    };

    if (req.method === "POST" && url.pathname === "/eng/process") {
      const fields = [...new URLSearchParams(raw).entries()];
      const problem = checkForm(fields);
      if (problem) return reply(400, `The supplied variables are not according to specification: ${problem}`);
      const checkoutId = randomUUID();
      checkouts.set(checkoutId, Object.fromEntries(fields));
      return reply(
        200,
        `<!doctype html><title>PayFast</title><form method="post" action="/eng/process/${checkoutId}">` +
          `<button name="do" value="pay">Pay</button><button name="do" value="fail">Fail</button>` +
          `<button name="do" value="cancel">Cancel</button></form>`,
        "text/html",
      );
    }
    const decide = /^\/eng\/process\/([0-9a-f-]{36})$/.exec(url.pathname);
    if (req.method === "POST" && decide) {
      const choice = new URLSearchParams(raw).get("do");
      if (choice === "pay") {
        const paid = await fake.pay(decide[1]!);
        res.writeHead(302, { Location: paid.returnUrl });
        return res.end();
      }
      if (choice === "cancel") {
        res.writeHead(302, { Location: fake.cancelCheckout(decide[1]!) });
        return res.end();
      }
      return reply(200, "The payment was declined.");
    }

    if (req.method === "POST" && url.pathname === "/eng/query/validate") {
      if (fake.validate.delayMs) await new Promise((r) => setTimeout(r, fake.validate.delayMs));
      if (fake.validate.status500) return reply(500, "error");
      if (fake.validate.invalid) return reply(200, "INVALID");
      const sent = itns.some((itn) => itnParamString(itn.pairs) === raw);
      return reply(200, sent ? "VALID" : "INVALID");
    }

    const api = /^\/subscriptions\/([^/]+)\/(fetch|pause|unpause|cancel|update|adhoc)$/.exec(url.pathname);
    if (api) {
      const token = decodeURIComponent(api[1]!);
      const action = api[2]!;
      let body: Record<string, unknown> = {};
      try {
        body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
      } catch {
        body = Object.fromEntries(new URLSearchParams(raw));
      }
      const call: ApiCall = { method: req.method ?? "", token, action, body, status: 0 };
      apiCalls.push(call);
      const answer = (status: number, payload: unknown) => {
        call.status = status;
        reply(status, JSON.stringify(payload), "application/json");
      };
      const failed = (status: number, message: string) =>
        answer(status, { code: status, status: "failed", data: { response: false, message } });
      const ok = () => answer(200, { code: 200, status: "success", data: { response: true } });
      const h = (name: string) => String(req.headers[name] ?? "");
      const signed = apiSignature(
        {
          "merchant-id": h("merchant-id"),
          version: h("version"),
          timestamp: h("timestamp"),
          ...Object.fromEntries(Object.entries(body).map(([k, v]) => [k, String(v)])),
          ...Object.fromEntries(url.searchParams),
        },
        passphrase,
      );
      if (h("merchant-id") !== merchantId || h("version") !== "v1" || h("signature") !== signed)
        return failed(401, "Merchant authorisation failed");
      if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}([+-]\d{2}:\d{2})?$/.test(h("timestamp")))
        return failed(400, "Invalid timestamp");
      const sub = subscriptions.get(token);
      if (!sub) return failed(404, "Subscription not found");
      const method = req.method;
      if (action === "fetch" && method === "GET") {
        return answer(200, {
          code: 200,
          status: "success",
          data: {
            response: {
              amount: sub.amountCents,
              cycles: 0,
              cycles_complete: sub.cyclesComplete,
              frequency: 3,
              run_date: `${sub.runDate}T00:00:00+02:00`,
              status: sub.status,
              status_text: sub.statusText,
              token,
            },
          },
        });
      }
      if (action === "cancel" && method === "PUT") {
        sub.status = 3;
        sub.statusText = "CANCELLED";
        ok();
        if (fake.cancelSendsItn)
          await send(makeItn(sub.form, { status: "CANCELLED", token, amountGross: "0.00", billingDate: "" }));
        return;
      }
      if (action === "pause" && method === "PUT") {
        const cycles = body.cycles === undefined ? 1 : Number(body.cycles);
        if (!Number.isInteger(cycles) || cycles < 1) return failed(400, "Invalid cycles");
        if (sub.statusText !== "ACTIVE") return failed(400, "The subscription is not in a valid state.");
        sub.status = 2;
        sub.statusText = "PAUSED";
        sub.pausedCycles = cycles;
        return ok();
      }
      if (action === "unpause" && method === "PUT") {
        if (sub.statusText !== "PAUSED") return failed(400, "The subscription is not in a valid state.");
        sub.status = 1;
        sub.statusText = "ACTIVE";
        sub.pausedCycles = 0;
        return ok();
      }
      if (action === "update" && method === "PATCH") {
        if (body.amount !== undefined) sub.amountCents = Number(body.amount);
        if (typeof body.run_date === "string") sub.runDate = body.run_date.slice(0, 10);
        return ok();
      }
      return failed(400, "The subscription is not in a valid state.");
    }
    reply(404, "not found");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const fake: FakePayfast = {
    base,
    processUrl: `${base}/eng/process`,
    validateUrl: `${base}/eng/query/validate`,
    apiUrl: base,
    merchantId,
    merchantKey,
    passphrase,
    subscriptions,
    itns,
    apiCalls,
    deliver: async (url, body) =>
      (await fetch(url, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body }))
        .status,
    validate: { invalid: false, delayMs: 0, status500: false },
    cancelSendsItn: false,
    async submit(fields) {
      const response = await fetch(fake.processUrl, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(fields).toString(),
      });
      const text = await response.text();
      return { status: response.status, text, checkoutId: /\/eng\/process\/([0-9a-f-]{36})/.exec(text)?.[1] };
    },
    async pay(checkoutId, at) {
      const form = checkouts.get(checkoutId);
      if (!form) throw new Error(`no checkout ${checkoutId}`);
      const token = randomUUID();
      const billingDate = form.billing_date || at || new Date().toISOString().slice(0, 10);
      subscriptions.set(token, {
        token,
        form,
        amountCents: Math.round(Number(form.recurring_amount || form.amount) * 100),
        runDate: addMonth(billingDate),
        status: 1,
        statusText: "ACTIVE",
        cyclesComplete: 1,
        failedRenewals: 0,
        pausedCycles: 0,
      });
      const itn = makeItn(form, { status: "COMPLETE", token, amountGross: form.amount!, billingDate });
      await send(itn);
      return { token, returnUrl: form.return_url ?? "", itn };
    },
    fail() {},
    cancelCheckout(checkoutId) {
      return checkouts.get(checkoutId)?.cancel_url ?? "";
    },
    prepareRenewal(token, opts = {}) {
      const sub = subscriptions.get(token);
      if (!sub) throw new Error(`no subscription ${token}`);
      if (sub.statusText === "PAUSED") throw new Error(`subscription ${token} is paused: PayFast charges nothing`);
      sub.runDate = addMonth(sub.runDate);
      sub.cyclesComplete++;
      return makeItn(sub.form, {
        status: "COMPLETE",
        token,
        amountGross: opts.amountGross ?? (sub.amountCents / 100).toFixed(2),
        billingDate: "",
      });
    },
    async renew(token, opts = {}) {
      const itn = fake.prepareRenewal(token, opts);
      if (opts.deliver !== false) await send(itn);
      return itn;
    },
    renewFail(token) {
      const sub = subscriptions.get(token);
      if (!sub) throw new Error(`no subscription ${token}`);
      sub.failedRenewals++;
      // Five retries in five days, then the subscription is locked (§1).
      if (sub.failedRenewals >= 5) {
        sub.status = 2;
        sub.statusText = "LOCKED";
      }
    },
    skipPausedCycle(token) {
      const sub = subscriptions.get(token);
      if (!sub || sub.statusText !== "PAUSED") throw new Error(`subscription ${token} is not paused`);
      sub.runDate = addMonth(sub.runDate);
      sub.pausedCycles--;
      if (sub.pausedCycles === 0) {
        sub.status = 1;
        sub.statusText = "ACTIVE";
      }
    },
    async buyerCancel(token) {
      const sub = subscriptions.get(token);
      if (!sub) throw new Error(`no subscription ${token}`);
      sub.status = 3;
      sub.statusText = "CANCELLED";
      const itn = makeItn(sub.form, { status: "CANCELLED", token, amountGross: "0.00", billingDate: "" });
      await send(itn);
      return itn;
    },
    async replay(itn) {
      const status = await fake.deliver(itn.url, itn.body).catch(() => 0);
      itn.answers.push(status);
      return status;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return fake;
}
