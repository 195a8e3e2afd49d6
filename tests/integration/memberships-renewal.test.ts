import { and, asc, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type DatabaseHandle } from "~/db/client.server";
import { emailOutbox, memberPeriods, members, membershipTiers, orders } from "~/db/schema";
import { fixedClock } from "~/lib/clock";
import { memberFromLinkToken, memberLinkSettings } from "~/memberships/member-links.server";
import { runMembershipJob } from "~/memberships/membership-job.server";
import { runCardRenewalPass } from "~/memberships/card-renewals.server";
import { findSubscriptionByOrder } from "~/memberships/card-subscriptions.server";
import { failNextSimulatedCharge, runSimulatedCharge } from "~/payments/payfast/simulator.server";
import { applyCardNotification } from "~/orders/card-charges.server";
import { runSimulatorSubscriptionIntent } from "~/orders/simulator-subscription.server";
import { findMemberByEmail, type MemberRow } from "~/memberships/member-row.server";
import { cancelMembership, chooseNextTier, giftMonth, memberPayments } from "~/memberships/members.server";
import { addDays, hasAccessOn } from "~/memberships/periods";
import { startRenewalCheckout } from "~/orders/renewal-checkout.server";
import { mailSettingsForOrders } from "~/orders/order-mail-settings.server";
import { recordPayment } from "~/orders/payment-events.server";
import { runSimulatorIntent } from "~/orders/simulator-actions.server";
import * as link from "~/routes/account-link";
import { createTestDatabase, testConfig, testContext } from "../support/test-db";
import { get, post } from "../support/account";
import { checkout, orderIdFrom } from "../support/checkout";

const DB_NAME = process.env.TEST_DATABASE_URL ? "PostgreSQL" : "PGlite";
const config = testConfig();
const links = memberLinkSettings(config);

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(async () => {
  await handle?.close();
});

let people = 0;
/** A visitor buys `tier` through /checkout and the simulator's Pay at `at` (South African time). */
async function join(at: string, tier = "style-starter") {
  const email = `member${++people}-${Date.now()}@example.com`;
  const clock = fixedClock(at);
  const id = orderIdFrom(
    await checkout(handle, "membership", tier, {
      clock,
      fields: {
        firstName: "Lindiwe",
        lastName: `Dube ${people}`,
        email: email.toUpperCase(),
        phone: "+27 82 555 0199",
        address: "3 Long Street",
      },
    }),
  );
  await pay(id, clock);
  const member = await findMemberByEmail(handle.db, email);
  if (!member) throw new Error("no member was made");
  return { member, orderId: id };
}

async function pay(orderId: string, clock: ReturnType<typeof fixedClock>) {
  const [order] = await handle.db.select().from(orders).where(eq(orders.id, orderId));
  await runSimulatorIntent(testContext(handle, { clock }), order!, "pay");
}

/** A visitor joins by the payment simulator's card subscription (no PayFast keys) at `at`. */
async function joinByCard(at: string) {
  const email = `card${++people}-${Date.now()}@example.com`;
  const clock = fixedClock(at);
  const orderId = orderIdFrom(
    await checkout(handle, "membership", "style-starter", {
      clock,
      fields: {
        firstName: "Ayanda",
        lastName: `Khumalo-Botha ${people}`,
        email,
        phone: "+27 82 555 0177",
        address: "9 Bree Street",
      },
    }),
  );
  const [order] = await handle.db.select().from(orders).where(eq(orders.id, orderId));
  await runSimulatorSubscriptionIntent(testContext(handle, { clock }), order!, "subscribe");
  const member = await findMemberByEmail(handle.db, email);
  const subscription = await findSubscriptionByOrder(handle.db, orderId);
  if (!member || !subscription?.token) throw new Error("no card member was made");
  return { member, orderId, token: subscription.token };
}

const reload = async (id: number) => (await handle.db.select().from(members).where(eq(members.id, id)))[0]!;

/** The member's emails, oldest first, as "day: subject" (the day the job queued them). */
async function emailsOf(member: MemberRow) {
  return handle.db
    .select({ subject: emailOutbox.subject, key: emailOutbox.dedupeKey, text: emailOutbox.textBody })
    .from(emailOutbox)
    .where(and(eq(emailOutbox.memberId, member.id), like(emailOutbox.dedupeKey, "member-%")))
    .orderBy(asc(emailOutbox.id));
}

/**
 * Runs the job twice a day (morning and late evening, SA time) from `from` to `to` inclusive, each time
 * on every handle in `db` at once; returns what each day queued for each of `people`.
 */
async function runDaysFor(
  people: MemberRow[],
  from: string,
  to: string,
  db: DatabaseHandle[] = [handle],
  morning?: (day: string) => Promise<void>,
) {
  const logs = people.map((): string[] => []);
  for (let day = from; day <= to; day = addDays(day, 1)) {
    const before = await Promise.all(people.map(async (m) => (await emailsOf(m)).length));
    await morning?.(day);
    for (const time of ["07:00", "23:50"]) {
      const at = new Date(`${day}T${time}:00+02:00`);
      // The membership job, then the card pass, as the timer runs them (membership-job.server.ts).
      await Promise.all(
        db.map(async (h) => {
          await runMembershipJob(h.db, at, links);
          await runCardRenewalPass(h.db, at, links, config);
        }),
      );
    }
    for (const [i, member] of people.entries()) {
      for (const email of (await emailsOf(member)).slice(before[i]))
        logs[i]!.push(`${day}: ${email.key!.split(":")[0]}`);
    }
  }
  return logs;
}

/** The same for one member. */
const runDays = async (member: MemberRow, from: string, to: string, db: DatabaseHandle[] = [handle]) =>
  (await runDaysFor([member], from, to, db))[0]!;

describe(`memberships that renew (${DB_NAME})`, () => {
  it(
    "a member who joined on 31 January is reminded on the right days, renews by the emailed link, and is paid until " +
      "the right date",
    async () => {
      const { member, orderId } = await join("2026-01-31T09:00:00+02:00");
      expect(member).toMatchObject({
        status: "active",
        paidUntil: "2026-02-28",
        tierSlug: "style-starter",
        name: `Lindiwe Dube ${people}`,
      });
      expect(member.email).toBe(member.email.toLowerCase());

      // The same payment confirmed again (a webhook retry, the provider asked on the buyer's return) extends nothing.
      for (const eventId of ["msg_retry_1", "reconcile_1"]) {
        await recordPayment(handle.db, {
          event: { eventId, provider: "simulator", eventType: "payment.succeeded", payload: {} },
          orderId,
          paymentId: "p_again",
          amountCents: 15000,
          now: new Date("2026-02-01T10:00:00+02:00"),
          mail: mailSettingsForOrders(config),
        });
      }
      expect((await reload(member.id)).paidUntil).toBe("2026-02-28");
      expect(await handle.db.select().from(memberPeriods).where(eq(memberPeriods.memberId, member.id))).toHaveLength(1);

      expect(await runDays(member, "2026-02-01", "2026-02-21")).toEqual(["2026-02-21: member-reminder-7"]);
      const [reminder] = await emailsOf(member);
      expect(reminder!.subject).toBe("Your Honey Bee membership renews on 28 February 2026");
      expect(reminder!.text).toContain("R 150.00 a month");

      // The reminder carries a Renew link and a Cancel membership link, each signed for its own purpose.
      const renewUrl = new URL(/https?:\/\/\S+\/account\/renew\?token=[\w.-]+/.exec(reminder!.text)![0]);
      const cancelUrl = new URL(
        /Cancel membership: (https?:\/\/\S+\/account\/cancel\?token=[\w.-]+)/.exec(reminder!.text)![1]!,
      );
      const token = renewUrl.searchParams.get("token");
      expect((await memberFromLinkToken(handle.db, config.sessionSecret, token, "renew"))?.id).toBe(member.id);
      expect(
        (await memberFromLinkToken(handle.db, config.sessionSecret, cancelUrl.searchParams.get("token"), "cancel"))?.id,
      ).toBe(member.id);
      // A renew token is not a cancel token, and a forged one is nothing.
      expect(await memberFromLinkToken(handle.db, config.sessionSecret, token, "cancel")).toBeUndefined();
      expect(
        await memberFromLinkToken(handle.db, config.sessionSecret, `${member.id}.${"A".repeat(32)}`, "renew"),
      ).toBeUndefined();

      // The owner raises the price before the member renews: the renewal is priced from the tier as it is then.
      await handle.db
        .update(membershipTiers)
        .set({ priceCents: 16000 })
        .where(eq(membershipTiers.slug, "style-starter"));
      try {
        // The member follows the emailed link (the route's GET, then its button's POST) on 22 February.
        const clock = fixedClock("2026-02-22T12:00:00+02:00");
        const path = `${renewUrl.pathname}${renewUrl.search}`;
        const shown = await get(link.loader, testContext(handle, { clock }), path);
        expect(shown.status).toBe(200);
        expect(shown.body.details).toMatchObject({
          name: member.name,
          tierName: "The Style Starter",
          price: "R 160.00 / month",
          paidUntil: "28 February 2026",
        });
        const started = await post(link.action, testContext(handle, { clock }), renewUrl.pathname, { token: token! });
        expect(started.status).toBe(302);
        const renewalId = /\/payments\/simulator\/([0-9a-f-]{36})$/.exec(started.headers.get("location")!)![1]!;
        const [renewal] = await handle.db.select().from(orders).where(eq(orders.id, renewalId));
        expect(renewal).toMatchObject({
          amountCents: 16000,
          memberId: member.id,
          orderType: "membership",
          status: "pending",
        });
        // The simulator's Pay delivers a signed payment.succeeded webhook to the webhook handler.
        await pay(renewalId, clock);
      } finally {
        await handle.db
          .update(membershipTiers)
          .set({ priceCents: 15000 })
          .where(eq(membershipTiers.slug, "style-starter"));
      }

      // Paid early: extends from 28 February, not from the day of payment.
      const renewed = await reload(member.id);
      expect(renewed).toMatchObject({ status: "active", paidUntil: "2026-03-28" });
      // The old link named the old paid-until day: it no longer works.
      expect(await memberFromLinkToken(handle.db, config.sessionSecret, token, "renew")).toBeUndefined();
      expect(
        (
          await post(
            link.action,
            testContext(handle, { clock: fixedClock("2026-02-23T12:00:00+02:00") }),
            renewUrl.pathname,
            { token: token! },
          )
        ).status,
      ).toBe(410);

      // No day-before reminder for the month already paid; the next ones come before 28 March.
      expect(await runDays(member, "2026-02-22", "2026-03-28")).toEqual([
        "2026-03-21: member-reminder-7",
        "2026-03-27: member-reminder-1",
      ]);
      const payments = await memberPayments(handle.db, member.id);
      expect(payments.map((p) => [p.kind, p.startsOn, p.endsOn, p.amountCents])).toEqual([
        ["payment", "2026-02-28", "2026-03-28", 16000],
        ["payment", "2026-01-31", "2026-02-28", 15000],
      ]);
    },
  );

  it("a member who does not pay goes due on the day, lapsed a week later, and gets each email once", async () => {
    const { member } = await join("2025-09-10T10:00:00+02:00");
    expect(member.paidUntil).toBe("2025-10-10");
    const log = await runDays(member, "2025-09-10", "2025-10-30");
    expect(log).toEqual([
      "2025-10-03: member-reminder-7",
      "2025-10-09: member-reminder-1",
      "2025-10-17: member-lapsed",
    ]);
    const subjects = (await emailsOf(member)).map((e) => e.subject);
    expect(subjects).toEqual([
      "Your Honey Bee membership renews on 10 October 2025",
      "Your Honey Bee membership renews tomorrow",
      "Your Honey Bee membership has lapsed",
    ]);
    // The last email still offers Renew, and no longer Cancel membership.
    const last = (await emailsOf(member)).at(-1)!;
    expect(last.text).toMatch(/\/account\/renew\?token=/);
    expect(last.text).not.toContain("/account/cancel");

    // Status by day, checked on a fresh member with the same dates.
    const { member: second } = await join("2025-09-10T11:00:00+02:00");
    const statusOn = async (day: string) => {
      await runMembershipJob(handle.db, new Date(`${day}T08:00:00+02:00`), links);
      return (await reload(second.id)).status;
    };
    expect(await statusOn("2025-10-09")).toBe("active");
    expect(await statusOn("2025-10-10")).toBe("due");
    expect(await statusOn("2025-10-16")).toBe("due");
    expect(await statusOn("2025-10-17")).toBe("lapsed");

    // Paying in the grace week extends from paid-until; paying after the lapse starts again on the day.
    const { member: third } = await join("2025-09-10T12:00:00+02:00");
    await runMembershipJob(handle.db, new Date("2025-10-12T08:00:00+02:00"), links);
    expect((await reload(third.id)).status).toBe("due");
    const graceClock = fixedClock("2025-10-12T09:00:00+02:00");
    const graceRenewal = await startRenewalCheckout(testContext(handle, { clock: graceClock }), third.id);
    await pay(
      /simulator\/([0-9a-f-]{36})/.exec((graceRenewal as { redirectUrl: string }).redirectUrl)![1]!,
      graceClock,
    );
    expect(await reload(third.id)).toMatchObject({ status: "active", paidUntil: "2025-11-10" });

    const lateClock = fixedClock("2025-11-05T09:00:00+02:00");
    const late = await startRenewalCheckout(testContext(handle, { clock: lateClock }), second.id);
    await pay(/simulator\/([0-9a-f-]{36})/.exec((late as { redirectUrl: string }).redirectUrl)![1]!, lateClock);
    expect(await reload(second.id)).toMatchObject({ status: "active", paidUntil: "2025-12-05" });
  });

  it("a cancelled member keeps access until paid-until and gets no reminder; a gift extends by exactly one month", async () => {
    const { member } = await join("2025-09-10T10:00:00+02:00");
    await cancelMembership(handle.db, member.id, new Date("2025-09-15T10:00:00+02:00"), "member");
    const cancelled = await reload(member.id);
    expect(cancelled).toMatchObject({ status: "cancelled", paidUntil: "2025-10-10" });
    expect(hasAccessOn(cancelled, "2025-10-09")).toBe(true);
    expect(hasAccessOn(cancelled, "2025-10-10")).toBe(false);
    expect(await runDays(member, "2025-09-15", "2025-10-25")).toEqual([]);
    expect((await reload(member.id)).status).toBe("cancelled");

    const { member: gifted } = await join("2026-01-31T10:00:00+02:00");
    const after = await giftMonth(
      handle.db,
      gifted.id,
      "Helped at the market stall",
      new Date("2026-02-03T10:00:00+02:00"),
    );
    expect(after).toMatchObject({ paidUntil: "2026-03-28", status: "active" });
    const [gift] = await memberPayments(handle.db, gifted.id);
    expect(gift).toMatchObject({
      kind: "gift",
      amountCents: 0,
      startsOn: "2026-02-28",
      endsOn: "2026-03-28",
      note: "Helped at the market stall",
    });
  });

  it("a change of plan takes effect at the next renewal, for the new plan's price", async () => {
    const { member } = await join("2025-09-10T10:00:00+02:00");
    expect((await chooseNextTier(handle.db, member.id, "upcycle-kings-queens", new Date())).ok).toBe(false);
    expect((await chooseNextTier(handle.db, member.id, "nope", new Date())).ok).toBe(false);
    const chosen = await chooseNextTier(handle.db, member.id, "creative-healer", new Date());
    expect(chosen.ok && chosen.member).toMatchObject({ tierSlug: "style-starter", nextTierSlug: "creative-healer" });
    const clock = fixedClock("2025-10-05T09:00:00+02:00");
    const started = await startRenewalCheckout(testContext(handle, { clock }), member.id);
    const id = /simulator\/([0-9a-f-]{36})/.exec((started as { redirectUrl: string }).redirectUrl)![1]!;
    expect((await handle.db.select().from(orders).where(eq(orders.id, id)))[0]!.amountCents).toBe(20000);
    await pay(id, clock);
    expect(await reload(member.id)).toMatchObject({
      tierSlug: "creative-healer",
      nextTierSlug: null,
      paidUntil: "2025-11-10",
    });
  });

  it("a server that was off for days catches up: the current email once, none of the missed ones late", async () => {
    const { member } = await join("2025-09-10T10:00:00+02:00");
    // Off from 1 October to 6 October: on the 6th the week-ahead reminder is still current, once however often it runs.
    await runMembershipJob(handle.db, new Date("2025-09-30T08:00:00+02:00"), links);
    for (let i = 0; i < 3; i++) await runMembershipJob(handle.db, new Date("2025-10-06T08:00:00+02:00"), links);
    expect((await emailsOf(member)).map((e) => e.key!.split(":")[0])).toEqual(["member-reminder-7"]);

    // A second member whose whole reminder and grace time fell in the downtime: lapsed with one last email.
    const { member: other } = await join("2025-09-10T10:30:00+02:00");
    await runMembershipJob(handle.db, new Date("2025-09-20T08:00:00+02:00"), links);
    for (let i = 0; i < 3; i++) await runMembershipJob(handle.db, new Date("2025-10-20T08:00:00+02:00"), links);
    expect((await emailsOf(other)).map((e) => e.key!.split(":")[0])).toEqual(["member-lapsed"]);
    expect((await reload(other.id)).status).toBe("lapsed");
  });

  it("two instances running the job at once (two pools on PostgreSQL) send each email once", async () => {
    // Four members due on the same day, so every pass has several rows to race for.
    const joined = [];
    for (let i = 0; i < 4; i++) joined.push((await join(`2025-09-10T1${i}:00:00+02:00`)).member);
    const instances = [handle];
    let second: DatabaseHandle | undefined;
    if (process.env.TEST_DATABASE_URL) {
      // A second instance: its own pool of connections to the same PostgreSQL database, as another server would have.
      second = await openDatabase({
        databaseUrl: (handle.raw.pool!.options as { connectionString: string }).connectionString,
      });
      expect(second.raw.pool).toBeDefined();
      expect(second.raw.pool).not.toBe(handle.raw.pool);
      // Each instance runs two overlapping passes (a slow pass and the next tick), on different connections.
      instances.push(second, handle, second);
    } else {
      // One in-memory PGlite cannot be opened twice: overlapping passes on its one handle.
      instances.push(handle, handle, handle);
    }
    try {
      const logs = await runDaysFor(joined, "2025-10-01", "2025-10-20", instances);
      for (const [i, member] of joined.entries()) {
        expect(logs[i], member.email).toEqual([
          "2025-10-03: member-reminder-7",
          "2025-10-09: member-reminder-1",
          "2025-10-17: member-lapsed",
        ]);
        expect((await reload(member.id)).status).toBe("lapsed");
        // Everything ever queued for the member, keyed or not: the order's confirmation, then those three once each.
        const all = await handle.db
          .select({ subject: emailOutbox.subject })
          .from(emailOutbox)
          .where(eq(emailOutbox.memberId, member.id))
          .orderBy(asc(emailOutbox.id));
        expect(
          all.map((e) => e.subject),
          member.email,
        ).toEqual([
          expect.stringMatching(/^Your Honey Bee order/),
          "Your Honey Bee membership renews on 10 October 2025",
          "Your Honey Bee membership renews tomorrow",
          "Your Honey Bee membership has lapsed",
        ]);
      }
    } finally {
      await second?.close();
    }
  });

  it("two instances with card members in the mix: each email and each extension once, the 3-day notice for cards", async () => {
    const byEmail = [];
    for (let i = 0; i < 2; i++) byEmail.push((await join(`2025-09-10T0${i + 7}:00:00+02:00`)).member);
    const byCard = [];
    for (let i = 0; i < 2; i++) byCard.push(await joinByCard(`2025-09-10T1${i + 4}:00:00+02:00`));
    const [charged, declined] = byCard as [
      Awaited<ReturnType<typeof joinByCard>>,
      Awaited<ReturnType<typeof joinByCard>>,
    ];
    expect(charged.member.paidUntil).toBe("2025-10-10");
    const instances = [handle];
    let second: DatabaseHandle | undefined;
    if (process.env.TEST_DATABASE_URL) {
      second = await openDatabase({
        databaseUrl: (handle.raw.pool!.options as { connectionString: string }).connectionString,
      });
      instances.push(second, handle, second);
    } else {
      instances.push(handle, handle, handle);
    }
    try {
      await failNextSimulatedCharge(handle.db, declined.token);
      const everyone = [...byEmail, charged.member, declined.member];
      const logs = await runDaysFor(everyone, "2025-10-01", "2025-10-20", instances, async (day) => {
        if (day !== "2025-10-10") return;
        // PayFast runs both charges early on the day; the one that went through is notified to every
        // instance at once (PayFast resends; a load balancer may hand copies to both servers).
        const clock = fixedClock("2025-10-10T05:00:00+02:00");
        const made = await runSimulatedCharge(handle.db, charged.token);
        if (!made.charged) throw new Error(made.reason);
        const subscription = (await findSubscriptionByOrder(handle.db, charged.orderId))!;
        await Promise.all(
          instances.map((h) => applyCardNotification(testContext(h, { clock }), subscription, made.notification)),
        );
        expect((await runSimulatedCharge(handle.db, declined.token)).charged).toBe(false);
      });
      for (const [i, member] of byEmail.entries()) {
        expect(logs[i], member.email).toEqual([
          "2025-10-03: member-reminder-7",
          "2025-10-09: member-reminder-1",
          "2025-10-17: member-lapsed",
        ]);
      }
      // The charged card member: the 3-day notice only, no reminders; extended once, by one period.
      expect(logs[2]).toEqual(["2025-10-07: member-card-notice"]);
      expect(await reload(charged.member.id)).toMatchObject({ status: "active", paidUntil: "2025-11-10" });
      const periods = await handle.db.select().from(memberPeriods).where(eq(memberPeriods.memberId, charged.member.id));
      expect(periods.map((p) => [p.startsOn, p.endsOn]).sort()).toEqual([
        ["2025-09-10", "2025-10-10"],
        ["2025-10-10", "2025-11-10"],
      ]);
      // The declined card: the notice, then the renewal link once the retries are over, then the lapse.
      expect(logs[3]).toEqual([
        "2025-10-07: member-card-notice",
        "2025-10-16: member-card-failed",
        "2025-10-17: member-lapsed",
      ]);
      expect((await reload(declined.member.id)).status).toBe("lapsed");
    } finally {
      await second?.close();
    }
  });
});
