import { eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/db/client.server";
import { emailOutbox, memberPeriods, memberSessions, orderAccess, orders, tickets } from "~/db/schema";
import { fixedClock } from "~/lib/clock";
import { startRenewalCheckout } from "~/orders/renewal-checkout.server";
import { orderPageToken } from "~/orders/order-access.server";
import { createSimulatorProvider } from "~/payments/simulator.server";
import { runSimulatorIntent } from "~/orders/simulator-actions.server";
import { loader as accountLoader } from "~/routes/account";
import { action as confirmationAction, loader as confirmationLoader } from "~/routes/order-confirmation";
import { action as orderAction, loader as orderLoader } from "~/routes/order";
import { loader as calendarLoader } from "~/routes/ticket-calendar";
import { loader as ticketsLoader } from "~/routes/tickets";
import { loader as workshopLoader } from "~/routes/workshop-tablecloth-skirt";
import { createTestDatabase, testConfig, testContext } from "../support/test-db";
import { cookiePair, get, post, sha256 } from "../support/account";
import { buyer, checkout, orderIdFrom } from "../support/checkout";

const WORKSHOP = "Transform Tablecloth into Wrap Around Skirt";
const NOW = "2025-09-10T10:00:00+02:00";
const SECRET = testConfig().sessionSecret;

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(() => handle?.close());

const context = (at = NOW) => testContext(handle, { clock: fixedClock(at) });

/** A checkout as the browser posts it: the order id and the buyer cookie its redirect sets. */
async function startCheckout(type: string, item: string, fields: Record<string, string> = buyer) {
  const result = await checkout(handle, type, item, { fields, clock: fixedClock(NOW) });
  const orderId = orderIdFrom(result);
  return {
    orderId,
    setCookie: (result as Response).headers.get("Set-Cookie"),
    cookie: cookiePair((result as Response).headers.get("Set-Cookie")),
  };
}

async function pay(orderId: string) {
  const [order] = await handle.db.select().from(orders).where(eq(orders.id, orderId));
  await runSimulatorIntent(context(), order!, "pay");
}

const confirmationPath = (orderId: string) =>
  `/order-confirmation?${new URLSearchParams({ status: "success", orderId })}`;

describe("the buyer's browser, bound when the checkout is created", () => {
  it("gets an HttpOnly cookie whose token is stored only as a hash, with the order page's hash", async () => {
    const { orderId, setCookie, cookie } = await startCheckout("workshop", WORKSHOP);
    expect(setCookie).toMatch(/^buyer=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=86400$/);
    const token = cookie.split("=")[1]!;
    const [row] = await handle.db.select().from(orderAccess).where(eq(orderAccess.orderId, orderId));
    expect(row!.buyerTokenHash).toBe(sha256(token));
    expect(row!.pageTokenHash).toBe(sha256(orderPageToken(SECRET, orderId)));
    expect(JSON.stringify(row)).not.toContain(token);
    expect(JSON.stringify(row)).not.toContain(orderPageToken(SECRET, orderId));
  });

  it("is never told in the redirect's URL", async () => {
    const result = await checkout(handle, "workshop", WORKSHOP, { clock: fixedClock(NOW) });
    const token = cookiePair((result as Response).headers.get("Set-Cookie")).split("=")[1]!;
    expect((result as Response).headers.get("Location")).not.toContain(token);
  });
});

describe("the confirmation page of a paid ticket order", () => {
  it(
    "shows the buyer's browser both seats' tickets with QR codes and the order page; another browser sees the spec's " +
      "page only",
    async () => {
      const { orderId, cookie } = await startCheckout("workshop", WORKSHOP, { ...buyer, seats: "2" });
      const [pending] = await handle.db.select().from(orders).where(eq(orders.id, orderId));
      expect(pending!.amountCents).toBe(50_000);

      const before = await get(confirmationLoader, context(), `/order-confirmation?orderId=${orderId}`, cookie);
      expect(before.body.state).toBe("pending");
      expect(before.body.buyer).toBeNull();

      await pay(orderId);
      const shown = await get(confirmationLoader, context(), confirmationPath(orderId), cookie);
      expect(shown.body.state).toBe("success");
      const issued = await handle.db.select().from(tickets).where(eq(tickets.orderId, orderId));
      expect(issued).toHaveLength(2);
      expect(shown.body.buyer.contents.tickets.map((t: { code: string }) => t.code).sort()).toEqual(
        issued.map((t) => t.code).sort(),
      );
      for (const ticket of shown.body.buyer.contents.tickets) {
        expect(ticket.qrSvg).toMatch(/^<svg/);
        expect(ticket.calendarPath).toBe(`/ticket/${ticket.code}/calendar`);
        expect(ticket.location).not.toBe("");
      }
      expect(shown.body.buyer.orderPagePath).toBe(`/order/${orderPageToken(SECRET, orderId)}`);

      const elsewhere = await get(confirmationLoader, context(), confirmationPath(orderId));
      expect(elsewhere.body.state).toBe("success");
      expect(elsewhere.body.buyer).toBeNull();
      const otherBuyer = await startCheckout("product", "Test Product");
      const otherBrowser = await get(confirmationLoader, context(), confirmationPath(orderId), otherBuyer.cookie);
      expect(otherBrowser.body.buyer).toBeNull();
    },
  );

  it("stops showing the order to the buyer's browser once the binding expires (24 hours)", async () => {
    const { orderId, cookie } = await startCheckout("workshop", WORKSHOP);
    await pay(orderId);
    expect(
      (await get(confirmationLoader, context("2025-09-11T09:59:00+02:00"), confirmationPath(orderId), cookie)).body
        .buyer,
    ).not.toBeNull();
    expect(
      (await get(confirmationLoader, context("2025-09-11T10:00:00+02:00"), confirmationPath(orderId), cookie)).body
        .buyer,
    ).toBeNull();
  });

  it("serves each ticket's calendar entry, one entry for the order's seats", async () => {
    const { orderId } = await startCheckout("workshop", WORKSHOP, { ...buyer, seats: "2" });
    await pay(orderId);
    const issued = await handle.db.select().from(tickets).where(eq(tickets.orderId, orderId));
    const files = await Promise.all(
      issued.map((t) => get(calendarLoader, context(), `/ticket/${t.code}/calendar`, undefined, { code: t.code })),
    );
    for (const file of files) {
      expect(file.status).toBe(200);
      expect(file.headers.get("Content-Type")).toBe("text/calendar; charset=utf-8");
      expect(file.body).toContain("BEGIN:VEVENT");
      expect(file.body).toContain(`SUMMARY:${WORKSHOP}`);
    }
    const uids = files.map((f) => /UID:(.*)\r\n/.exec(f.body)![1]);
    expect(new Set(uids).size).toBe(1);
    expect(
      (await get(calendarLoader, context(), "/ticket/x/calendar", undefined, { code: "A".repeat(24) })).status,
    ).toBe(404);
  });

  it("refuses a seat count it does not offer, and changes nothing", async () => {
    const count = async () => (await handle.db.select().from(orders)).length;
    const before = await count();
    for (const seats of ["4", "0", "two", "1.5"]) {
      const result = await checkout(handle, "workshop", WORKSHOP, {
        fields: { ...buyer, seats },
        clock: fixedClock(NOW),
      });
      expect(result).not.toBeInstanceOf(Response);
      expect((result as { toast: { description: string } }).toast.description).toBe("Please choose from 1 to 3 seats.");
    }
    expect(await count()).toBe(before);
  });
});

describe("a paid membership: into /account from the browser that bought it", () => {
  it("signs in only the order's member, only once paid, only from the buyer's browser", async () => {
    const fields = { ...buyer, email: "new.member@example.com" };
    const { orderId, cookie } = await startCheckout("membership", "style-starter", fields);
    const path = confirmationPath(orderId);

    const unpaid = await post(confirmationAction, context(), path, { intent: "enter-account" }, cookie);
    expect(unpaid.status).toBe(403);
    expect(await handle.db.select().from(memberSessions)).toHaveLength(0);

    await pay(orderId);
    const shown = await get(confirmationLoader, context(), path, cookie);
    expect(shown.body.buyer.canEnterAccount).toBe(true);
    expect(shown.body.buyer.contents.membership.tierName).toBe("The Style Starter");
    expect(shown.body.buyer.contents.membership.paidUntil).toBe("10 October 2025");

    const stranger = await post(confirmationAction, context(), path, { intent: "enter-account" });
    expect(stranger.status).toBe(403);
    const otherBuyer = await startCheckout("product", "Test Product");
    expect(
      (await post(confirmationAction, context(), path, { intent: "enter-account" }, otherBuyer.cookie)).status,
    ).toBe(403);
    expect(await handle.db.select().from(memberSessions)).toHaveLength(0);

    const expired = await post(
      confirmationAction,
      context("2025-09-11T10:00:00+02:00"),
      path,
      { intent: "enter-account" },
      cookie,
    );
    expect(expired.status).toBe(403);

    const entered = await post(confirmationAction, context(), path, { intent: "enter-account" }, cookie);
    expect(entered.status).toBe(302);
    expect(entered.headers.get("Location")).toBe("/account");
    const session = cookiePair(entered.headers.get("Set-Cookie"));
    const account = await get(accountLoader, context(), "/account", session);
    expect(account.body.signedIn).toBe(true);
    expect(account.body.account.email).toBe("new.member@example.com");
  });

  it("binds a renewal's checkout to the browser that pays it too", async () => {
    const { orderId: firstOrder } = await startCheckout("membership", "style-starter", {
      ...buyer,
      email: "renewing@example.com",
    });
    await pay(firstOrder);
    const [period] = await handle.db.select().from(memberPeriods).where(eq(memberPeriods.orderId, firstOrder));
    const started = await startRenewalCheckout(context(), period!.memberId, createSimulatorProvider());
    if (!started.ok) throw new Error(started.reason);
    const cookie = cookiePair(started.buyerCookie);
    const renewalId = /\/payments\/simulator\/([0-9a-f-]{36})/.exec(started.redirectUrl)![1]!;
    await pay(renewalId);
    const shown = await get(confirmationLoader, context(), confirmationPath(renewalId), cookie);
    expect(shown.body.buyer.contents.membership).toMatchObject({
      tierName: "The Style Starter",
      paidUntil: "10 November 2025",
    });
  });

  it("does not sign anyone in for an order that is not a membership", async () => {
    const { orderId, cookie } = await startCheckout("workshop", WORKSHOP);
    await pay(orderId);
    const refused = await post(
      confirmationAction,
      context(),
      confirmationPath(orderId),
      { intent: "enter-account" },
      cookie,
    );
    expect(refused.status).toBe(403);
  });
});

describe("the private order page /order/{token}", () => {
  // The workshop has 8 seats a session: the tests above took them.
  beforeAll(async () => {
    await handle.close();
    handle = await createTestDatabase();
  });

  it("opens from any browser with the link, which the confirmation email carries; a wrong token is a 404", async () => {
    const { orderId } = await startCheckout("workshop", WORKSHOP);
    const token = orderPageToken(SECRET, orderId);
    const pendingPage = await get(orderLoader, context(), `/order/${token}`, undefined, { token });
    expect(pendingPage.status).toBe(200);
    expect(pendingPage.body.contents.state).toBe("pending");
    expect(pendingPage.body.contents.tickets).toEqual([]);

    await pay(orderId);
    const page = await get(orderLoader, context(), `/order/${token}`, undefined, { token });
    expect(page.status).toBe(200);
    expect(page.headers.get("Cache-Control")).toBe("private, no-store");
    expect(page.headers.get("X-Robots-Tag")).toBe("noindex");
    expect(page.body.contents.tickets).toHaveLength(1);
    expect(page.body.canEnterAccount).toBe(false);

    const [email] = await handle.db
      .select()
      .from(emailOutbox)
      .where(like(emailOutbox.dedupeKey, `order-confirmation:${orderId}`));
    expect(email!.textBody).toContain(`http://localhost:3000/order/${token}`);
    expect(email!.htmlBody).toContain(`href="http://localhost:3000/order/${token}"`);

    for (const wrong of [token.slice(0, -1) + (token.endsWith("A") ? "B" : "A"), "short", `${token}x`]) {
      expect((await get(orderLoader, context(), `/order/${wrong}`, undefined, { token: wrong })).status).toBe(404);
    }
  });

  it("offers /account to the buyer's browser only", async () => {
    const { orderId, cookie } = await startCheckout("membership", "style-starter", {
      ...buyer,
      email: "page.member@example.com",
    });
    await pay(orderId);
    const token = orderPageToken(SECRET, orderId);
    expect((await get(orderLoader, context(), `/order/${token}`, cookie, { token })).body.canEnterAccount).toBe(true);
    expect((await get(orderLoader, context(), `/order/${token}`, undefined, { token })).body.canEnterAccount).toBe(
      false,
    );
    expect(
      (await post(orderAction, context(), `/order/${token}`, { intent: "enter-account" }, undefined, { token })).status,
    ).toBe(403);
    expect(
      (await post(orderAction, context(), `/order/${token}`, { intent: "enter-account" }, cookie, { token })).status,
    ).toBe(302);
  });
});

describe("seats left on the public event pages", () => {
  // The workshop has 8 seats a session: the tests above took them.
  beforeAll(async () => {
    await handle.close();
    handle = await createTestDatabase();
  });

  it("says how many of the capacity are left once fewer than 10 remain", async () => {
    const before = await get(workshopLoader, context(), "/workshop/tablecloth-skirt");
    const left = Number(/^(\d) of 8 seats left$/.exec(before.body.seatsLeft)![1]);
    const { orderId } = await startCheckout("workshop", WORKSHOP, { ...buyer, seats: "3" });
    await pay(orderId);
    expect((await get(workshopLoader, context(), "/workshop/tablecloth-skirt")).body.seatsLeft).toBe(
      `${left - 3} of 8 seats left`,
    );
  });

  it("shows nothing for an option that counts no seats", async () => {
    const page = await get(ticketsLoader, context(), "/tickets/sip-style", undefined, { eventId: "sip-style" });
    expect(page.body.options.every((o: { seatsLeft: string | null }) => o.seatsLeft === null)).toBe(true);
  });
});
