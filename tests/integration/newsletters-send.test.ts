import { eq } from "drizzle-orm";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { openDatabase, type DatabaseHandle } from "~/db/client.server";
import { adminAuditLog, emailOutbox, members, newsletterRecipients, newsletters, subscribers } from "~/db/schema";
import { deliverPendingEmails } from "~/email/outbox.server";
import { fixedClock } from "~/lib/clock";
import { createMemberSession } from "~/memberships/member-session.server";
import { runNewsletterPass, startNewsletter, type SenderSettings } from "~/newsletters/newsletter-sender.server";
import { cookiePair } from "../support/account";
import { signedInOwner } from "../support/owner";
import { routeAnswer } from "../support/route-answer";
import { guardedRoute } from "../support/route-middleware";
import { createTestDatabase, testConfig, testContext } from "../support/test-db";

// Issue 42: the owner writes to a segment; each recipient gets each newsletter exactly once, at a bounded rate.

const edit = guardedRoute("routes/admin/newsletter-edit.tsx");
const list = guardedRoute("routes/admin/newsletters.tsx");
let handle: DatabaseHandle;
const clock = fixedClock("2025-09-20T10:00:00+02:00");
const context = () => testContext(handle, { clock });
const config = testConfig();
const settings = (rate: number, everyMs = 1_000): SenderSettings => ({
  siteUrl: config.siteUrl,
  sessionSecret: config.sessionSecret,
  ownerEmail: config.mail.ownerEmail,
  ratePerSecond: rate,
  everyMs,
});

beforeEach(async () => {
  await handle?.close();
  handle = await createTestDatabase();
});
afterAll(() => handle?.close());

/** A transport that records what the mail server was handed. */
function recordingTransport() {
  const sent: { to: string; subject: string; text: string; html?: string; headers?: Record<string, string> }[] = [];
  return { sent, transport: { sendMail: async (mail: (typeof sent)[number]) => void sent.push(mail) } as never };
}

async function member(email: string, tierSlug: string, status: "active" | "due" | "lapsed" | "cancelled") {
  await handle.db.insert(members).values({
    email,
    name: `Member ${email.split("@")[0]}`,
    phone: "082 555 0100",
    tierSlug,
    status,
    paidUntil: "2025-10-10",
    joinedAt: new Date("2025-09-10T08:00:00Z"),
  });
}

function postForm(path: string, fields: [string, string][], cookie: string, params: Record<string, string> = {}) {
  const request = new Request(`http://localhost:3000${path}`, {
    method: "POST",
    headers: { Origin: "http://localhost:3000", "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie },
    body: new URLSearchParams(fields),
  });
  return routeAnswer(() => edit.action({ request, context: context(), params } as never));
}

const letter = (extra: [string, string][] = []): [string, string][] => [
  ["intent", "send"],
  ["postId", ""],
  ["title", "New pieces for Glow Bees"],
  ["body", "## This month\n\nThree new skirts, [see them](https://shop.example/skirts)."],
  ["segment", "tiers"],
  ["tiers", "glow-bee"],
  ["sendAt", ""],
  ...extra,
];

describe("the owner sends to Glow Bee members", () => {
  it("reaches exactly the active Glow Bee members, once each, ticked news box or not; a refusal is left out", async () => {
    await member("ticked@example.test", "glow-bee", "active");
    await member("unticked@example.test", "glow-bee", "active");
    await member("refused@example.test", "glow-bee", "active");
    await member("due@example.test", "glow-bee", "due");
    await member("lapsed@example.test", "glow-bee", "lapsed");
    await member("starter@example.test", "style-starter", "active");
    await handle.db.insert(subscribers).values([
      { email: "ticked@example.test", status: "subscribed" },
      { email: "refused@example.test", status: "unsubscribed" },
      { email: "fan@example.test", status: "subscribed" },
    ]);
    const owner = await signedInOwner(handle, { clock });

    const sent = await postForm("/admin/newsletters/new", letter(), owner);
    expect(sent.status).toBe(302);
    const id = Number(/\/admin\/newsletters\/(\d+)$/.exec(sent.location!)![1]);

    // Two passes, as two instances would run them, and a repeat: the list and the queue hold each once.
    await runNewsletterPass(handle.db, settings(100), clock.now(), new Date("2030-01-01T00:00:00Z"));
    await runNewsletterPass(handle.db, settings(100), clock.now(), new Date("2030-01-01T00:00:01Z"));
    await runNewsletterPass(handle.db, settings(100), clock.now(), new Date("2030-01-01T00:00:02Z"));
    const { sent: mails, transport } = recordingTransport();
    await deliverPendingEmails(handle.db, { smtpUrl: "smtp://test", from: "shop@example.test" }, transport, () => {});

    expect(mails.map((m) => m.to).sort()).toEqual(["ticked@example.test", "unticked@example.test"]);
    for (const mail of mails) {
      expect(mail.subject).toBe("New pieces for Glow Bees");
      const url = /<(http:\/\/localhost:3000\/newsletter\/unsubscribe\/r\d+\.[0-9a-f]{32})>/.exec(
        mail.headers!["List-Unsubscribe"]!,
      )![1]!;
      expect(mail.headers!["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
      expect(mail.text).toContain(`Unsubscribe with one click: ${url}`);
      expect(mail.html).toContain(`href="${url}"`);
      // The owner's link as she wrote it, and no image at all: nothing watches who opens it.
      expect(mail.html).toContain('href="https://shop.example/skirts"');
      expect(mail.html).not.toMatch(/<img/);
      expect(mail.text).toContain("as a member");
    }
    const page = await routeAnswer(() =>
      edit.loader({
        request: new Request(`http://localhost:3000/admin/newsletters/${id}`, { headers: { Cookie: owner } }),
        context: context(),
        params: { id: String(id) },
      } as never),
    );
    expect(page.body.status).toBe("sent");
    expect(page.body.report).toMatchObject({ recipients: 2, sent: 2, failed: 0, unsubscribed: 0 });
    const audit = await handle.db.select().from(adminAuditLog).where(eq(adminAuditLog.entity, "newsletter"));
    expect(audit.map((a) => a.action).sort()).toEqual(["newsletter.save", "newsletter.send"]);
  });

  it("a test goes to the owner only, marked as a test, and the draft stays a draft", async () => {
    await member("ticked@example.test", "glow-bee", "active");
    const owner = await signedInOwner(handle, { clock });
    const answer = await postForm(
      "/admin/newsletters/new",
      letter().map(([k, v]) => [k, k === "intent" ? "test" : v]),
      owner,
    );
    expect(answer.status).toBe(302);
    const outbox = await handle.db.select().from(emailOutbox);
    expect(outbox).toHaveLength(1);
    expect(outbox[0]).toMatchObject({ toAddress: config.mail.ownerEmail, subject: "[Test] New pieces for Glow Bees" });
    expect(await handle.db.select({ status: newsletters.status }).from(newsletters)).toEqual([{ status: "draft" }]);
  });

  const bad: [string, [string, string][], string, string][] = [
    [
      "no title",
      letter([["title", " "]]).filter(([k, v]) => k !== "title" || v === " "),
      "title",
      "Write a title, or choose a post to send.",
    ],
    [
      "no text",
      letter().map(([k, v]) => [k, k === "body" ? "" : v]),
      "body",
      "Write the text, or choose a post to send.",
    ],
    ["no tier chosen", letter().filter(([k]) => k !== "tiers"), "tiers", "Choose at least one tier."],
    [
      "an unknown tier",
      letter().map(([k, v]) => [k, k === "tiers" ? "platinum" : v]),
      "tiers",
      "Choose tiers from the list.",
    ],
    [
      "an unknown segment",
      letter().map(([k, v]) => [k, k === "segment" ? "everyone" : v]),
      "segment",
      "Choose who receives it.",
    ],
    [
      "an unknown action",
      letter().map(([k, v]) => [k, k === "intent" ? "blast" : v]),
      "intent",
      "Unknown action: nothing was changed.",
    ],
    [
      "a post that is not one",
      letter().map(([k, v]) => [k, k === "postId" ? "99999" : v]),
      "postId",
      "Choose a published post from the list.",
    ],
    [
      "a schedule without a time",
      letter().map(([k, v]) => [k, k === "intent" ? "schedule" : v]),
      "sendAt",
      "Enter the date and time to send it.",
    ],
    [
      "a schedule in the past",
      letter().map(([k, v]) => [k, k === "intent" ? "schedule" : k === "sendAt" ? "2025-09-19T09:00" : v]),
      "sendAt",
      "Choose a time in the future, or press Send now.",
    ],
    [
      "a photo that is not the shop's",
      [...letter(), ["photoSrc", "https://evil.test/x.png"], ["photoAlt", "x"]],
      "photos",
      "This photo is not one of the shop's images; upload it again.",
    ],
  ];
  for (const [what, fields, field, message] of bad) {
    it(`refuses ${what} with a field message and changes nothing`, async () => {
      await member("ticked@example.test", "glow-bee", "active");
      const owner = await signedInOwner(handle, { clock });
      const answer = await postForm("/admin/newsletters/new", fields, owner);
      expect(answer.status).toBe(400);
      expect(answer.body.fieldErrors[field]).toBe(message);
      expect(await handle.db.select().from(newsletters)).toEqual([]);
      expect(await handle.db.select().from(emailOutbox)).toEqual([]);
    });
  }

  it("refuses a member's session and an anonymous one", async () => {
    await member("ticked@example.test", "glow-bee", "active");
    const [m] = await handle.db.select().from(members);
    const memberCookie = cookiePair(await createMemberSession(handle.db, context(), m!.id));
    for (const cookie of [memberCookie, ""]) {
      const page = await routeAnswer(() =>
        list.loader({
          request: new Request("http://localhost:3000/admin/newsletters", { headers: { Cookie: cookie } }),
          context: context(),
          params: {},
        } as never),
      );
      expect(page.status).toBe(302);
      expect(page.location).toContain("/admin/login");
      const send = await postForm("/admin/newsletters/new", letter(), cookie);
      expect(send.status).toBe(302);
      expect(send.location).toContain("/admin/login");
    }
    expect(await handle.db.select().from(newsletters)).toEqual([]);
  });
});

describe("a time to send, and a failed delivery", () => {
  it("a scheduled newsletter waits for its time, then goes; a failed delivery is retried, then counted", async () => {
    await member("ok@example.test", "glow-bee", "active");
    await member("bounces@example.test", "glow-bee", "active");
    const owner = await signedInOwner(handle, { clock });
    const fields = letter().map(([k, v]): [string, string] =>
      k === "intent" ? [k, "schedule"] : k === "sendAt" ? [k, "2025-09-20T18:30"] : [k, v],
    );
    const saved = await postForm("/admin/newsletters/new", fields, owner);
    expect(saved.status).toBe(302);
    const [row] = await handle.db.select().from(newsletters);
    expect(row).toMatchObject({ status: "scheduled", sendAt: new Date("2025-09-20T16:30:00Z") });

    await runNewsletterPass(handle.db, settings(10), new Date("2025-09-20T18:29:00+02:00"), new Date(1_000_000));
    expect(await handle.db.select().from(newsletterRecipients)).toEqual([]);
    await runNewsletterPass(handle.db, settings(10), new Date("2025-09-20T18:30:00+02:00"), new Date(2_000_000));
    expect(await handle.db.select().from(newsletterRecipients)).toHaveLength(2);

    const sent: string[] = [];
    const transport = {
      sendMail: async (mail: { to: string }) => {
        if (mail.to === "bounces@example.test") throw new Error("550 mailbox unavailable");
        sent.push(mail.to);
      },
    } as never;
    for (let pass = 0; pass < 6; pass++)
      await deliverPendingEmails(handle.db, { smtpUrl: "smtp://test", from: "shop@example.test" }, transport, () => {});
    expect(sent).toEqual(["ok@example.test"]);
    const page = await routeAnswer(() =>
      list.loader({
        request: new Request("http://localhost:3000/admin/newsletters", { headers: { Cookie: owner } }),
        context: context(),
        params: {},
      } as never),
    );
    expect(page.body.newsletters[0]).toMatchObject({ recipients: 2, sent: 1, failed: 1, unsubscribed: 0 });
  });
});

describe("500 recipients, a restart and two instances", () => {
  it("sends each exactly once, at the rate, whatever stops in the middle", async () => {
    const emails = Array.from({ length: 500 }, (_, i) => `reader${String(i).padStart(3, "0")}@example.test`);
    await handle.db.insert(subscribers).values(emails.map((email) => ({ email, status: "subscribed" as const })));
    const [row] = await handle.db
      .insert(newsletters)
      .values({ title: "Workshop dates", body: "See you there.", segment: { kind: "subscribers" } })
      .returning();
    expect(await startNewsletter(handle.db, row!.id, clock.now())).toBe(true);
    // Starting twice lists nobody twice.
    expect(await startNewsletter(handle.db, row!.id, clock.now())).toBe(false);

    // A second instance on the same database: PostgreSQL's own pool, or (PGlite serves one process) the same handle.
    const url = handle.raw.pool?.options.connectionString;
    const other = url ? await openDatabase({ databaseUrl: url, poolSize: 3 }) : handle;
    try {
      const rate = settings(20);
      let wall = Date.parse("2030-01-01T00:00:00Z");
      const queuedAfter = async () =>
        (await handle.db.select().from(newsletterRecipients)).filter((r) => r.outboxId !== null).length;

      // Both instances run at the same moment: one takes the turn, so a second's worth goes, not two.
      await Promise.all([
        runNewsletterPass(handle.db, rate, clock.now(), new Date(wall)),
        runNewsletterPass(other.db, rate, clock.now(), new Date(wall)),
      ]);
      expect(await queuedAfter()).toBe(20);

      // An instance dies just after taking its turn (nothing queued): the next turn comes a second later.
      wall += 1_000;
      await handle.db
        .update(newsletters)
        .set({ lastBatchAt: new Date(wall) })
        .where(eq(newsletters.id, row!.id));
      await runNewsletterPass(other.db, rate, clock.now(), new Date(wall + 500));
      expect(await queuedAfter()).toBe(20);

      // The mail goes out in between, as the outbox's own timer sends it.
      const { sent, transport } = recordingTransport();
      const mail = { smtpUrl: "smtp://test", from: "shop@example.test" };
      for (let pass = 0; pass < 60 && (await queuedAfter()) < 500; pass++) {
        wall += 1_000;
        await Promise.all([
          runNewsletterPass(handle.db, rate, clock.now(), new Date(wall)),
          runNewsletterPass(other.db, rate, clock.now(), new Date(wall + 3)),
        ]);
        if (pass % 3 === 0) await deliverPendingEmails(other.db, mail, transport, () => {});
      }
      expect(await queuedAfter()).toBe(500);
      // The pass after the last batch finds nobody left and marks it sent (a whole turn after the last one).
      wall += 2_000;
      await runNewsletterPass(handle.db, rate, clock.now(), new Date(wall));
      for (let pass = 0; pass < 40; pass++) {
        const { sent: n } = await deliverPendingEmails(handle.db, mail, transport, () => {});
        if (!n) break;
      }

      expect(sent).toHaveLength(500);
      expect(new Set(sent.map((m) => m.to)).size).toBe(500);
      expect(sent.map((m) => m.to).sort()).toEqual(emails);
      const [done] = await handle.db.select().from(newsletters).where(eq(newsletters.id, row!.id));
      expect(done!.status).toBe("sent");
    } finally {
      if (other !== handle) await other.close();
    }
  });
});
