import { eq } from "drizzle-orm";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/db/client.server";
import {
  adminAuditLog,
  blogPosts,
  emailOutbox,
  members,
  newsletterRecipients,
  newsletters,
  subscribers,
} from "~/db/schema";
import { deliverPendingEmails } from "~/email/outbox.server";
import { runNewsletterPass, type SenderSettings } from "~/newsletters/newsletter-sender.server";
import * as blogEditRoute from "~/routes/admin/blog-edit";
import { call, get, multipart, toastOf } from "../support/admin-content";
import { signedInOwner } from "../support/owner";
import { createTestDatabase, testConfig } from "../support/test-db";

// Issue 42: a post is emailed to its readers when published (a newsletter to the post's segment,
// through the sender), so each reader gets it once across instances and restarts.

const SECRET = "The Glow Bee dye recipe: two onion skins to one litre of rainwater";
const config = testConfig();
const settings: SenderSettings = {
  siteUrl: config.siteUrl,
  sessionSecret: config.sessionSecret,
  ownerEmail: config.mail.ownerEmail,
  ratePerSecond: 2,
  everyMs: 1_000,
};
let handle: DatabaseHandle;
let owner: string;

beforeEach(async () => {
  await handle?.close();
  handle = await createTestDatabase();
  owner = await signedInOwner(handle);
});
afterAll(() => handle?.close());

async function member(email: string, tierSlug: string, status: "active" | "due" | "lapsed" | "cancelled") {
  await handle.db.insert(members).values({
    email,
    name: `Member ${email.split("@")[0]}`,
    phone: "+27825550100",
    tierSlug,
    status,
    paidUntil: "2099-10-10",
    joinedAt: new Date("2025-09-10T08:00:00Z"),
  });
}

async function draftPost(audience: "public" | "members" | "tiers", audienceTiers: string[] = []) {
  const [row] = await handle.db
    .insert(blogPosts)
    .values({
      slug: `dye-day-${audience}`,
      title: "Dye day: what the onion skins gave us",
      excerpt: "What we dyed this month.",
      content: `## Dye day\n\n${SECRET}.`,
      publishedOn: "2025-09-15",
      published: false,
      audience,
      audienceTiers,
    })
    .returning();
  return row!;
}

const act = (id: number, fields: [string, string][]) =>
  call(handle, blogEditRoute.action, multipart(`/admin/blog/${id}`, fields, owner), { id: String(id) });

/** Queues at the rate from two instances, several passes (as time goes by and after a restart), then delivers. */
async function sendEverything() {
  for (let second = 0; second < 6; second++) {
    const at = new Date(Date.UTC(2030, 0, 1, 0, 0, second));
    await runNewsletterPass(handle.db, settings, new Date(), at);
    await runNewsletterPass(handle.db, settings, new Date(), at);
  }
  const sent: { to: string; subject: string; text: string; html?: string; headers?: Record<string, string> }[] = [];
  const transport = { sendMail: async (mail: (typeof sent)[number]) => void sent.push(mail) } as never;
  await deliverPendingEmails(handle.db, { smtpUrl: "smtp://test", from: "shop@example.test" }, transport, () => {});
  return sent;
}

describe("emailing a post to its readers", () => {
  it("publishing a Glow Bee post with the box ticked reaches exactly the active Glow Bee members, once each", async () => {
    await member("ticked@example.test", "glow-bee", "active");
    await member("unticked@example.test", "glow-bee", "active");
    await member("refused@example.test", "glow-bee", "active");
    await member("due@example.test", "glow-bee", "due");
    await member("lapsed@example.test", "glow-bee", "lapsed");
    await member("cancelled@example.test", "glow-bee", "cancelled");
    await member("other-plan@example.test", "style-starter", "active");
    await handle.db.insert(subscribers).values([
      { email: "ticked@example.test", status: "subscribed" },
      { email: "refused@example.test", status: "unsubscribed" },
      { email: "fan@example.test", status: "subscribed" },
    ]);
    const post = await draftPost("tiers", ["glow-bee"]);

    const page = await call(handle, blogEditRoute.loader, get(`/admin/blog/${post.id}`, owner), {
      id: String(post.id),
    });
    expect(page.body.email).toMatchObject({ reach: 2, audience: "tiers", emailed: null });

    const published = await act(post.id, [
      ["intent", "publish"],
      ["emailReaders", "on"],
    ]);
    expect(published.status).toBe(302);
    expect(toastOf(published)).toMatchObject({
      title: "Post published and emailed",
      description: `"${post.title}" is on the blog now. The email goes to 2 readers, a few each second.`,
    });
    // A second click, a second publish and the published page's button make no second newsletter.
    await act(post.id, [
      ["intent", "publish"],
      ["emailReaders", "on"],
    ]);
    const again = await act(post.id, [["intent", "email-readers"]]);
    expect(again.status).toBe(400);
    expect(again.body.emailError).toBe("This post has been emailed to its readers already.");
    expect(await handle.db.select({ id: newsletters.id }).from(newsletters)).toHaveLength(1);

    const mails = await sendEverything();
    expect(mails.map((m) => m.to).sort()).toEqual(["ticked@example.test", "unticked@example.test"]);
    for (const mail of mails) {
      expect(mail.subject).toBe(post.title);
      // The members' text is theirs: the email carries it whole, with the way out.
      expect(mail.text).toContain(SECRET);
      expect(mail.text).toContain(`${config.siteUrl}/blog/${post.slug}`);
      expect(mail.text).toContain("as a member");
      expect(mail.text).toMatch(/Unsubscribe with one click: http:\/\/localhost:3000\/newsletter\/unsubscribe\/r\d+\./);
      expect(mail.headers!["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
    }
    // Passes after the end queue nothing more.
    expect(await sendEverything()).toEqual([]);
    const [letter] = await handle.db.select().from(newsletters);
    expect(letter).toMatchObject({ postId: post.id, status: "sent", segment: { kind: "tiers", tiers: ["glow-bee"] } });
    expect(await handle.db.select().from(newsletterRecipients)).toHaveLength(2);
    const audit = await handle.db.select().from(adminAuditLog).where(eq(adminAuditLog.entity, "newsletter"));
    expect(audit.map((a) => a.summary)).toEqual([`Started emailing post "${post.title}" to its readers`]);

    const after = await call(handle, blogEditRoute.loader, get(`/admin/blog/${post.id}`, owner), {
      id: String(post.id),
    });
    expect(after.body.email.emailed).toMatchObject({ id: letter!.id });
  });

  it("publishing without the box ticked emails nobody", async () => {
    await member("ticked@example.test", "glow-bee", "active");
    const post = await draftPost("members");
    const published = await act(post.id, [["intent", "publish"]]);
    expect(toastOf(published)?.title).toBe("Post published");
    expect(await handle.db.select().from(newsletters)).toEqual([]);
  });

  it("a members' post goes to the active members of every plan", async () => {
    await member("glow@example.test", "glow-bee", "active");
    await member("starter@example.test", "style-starter", "active");
    await member("lapsed@example.test", "style-starter", "lapsed");
    await handle.db.insert(subscribers).values({ email: "fan@example.test", status: "subscribed" });
    const post = await draftPost("members");
    await act(post.id, [
      ["intent", "publish"],
      ["emailReaders", "on"],
    ]);
    expect((await sendEverything()).map((m) => m.to).sort()).toEqual(["glow@example.test", "starter@example.test"]);
  });

  it("a published public post's button emails the subscribers who consented, and only them", async () => {
    await member("glow@example.test", "glow-bee", "active");
    await handle.db.insert(subscribers).values([
      { email: "fan@example.test", status: "subscribed" },
      { email: "pending@example.test", status: "pending" },
      { email: "gone@example.test", status: "unsubscribed" },
    ]);
    const post = await draftPost("public");
    await act(post.id, [["intent", "publish"]]);
    const sent = await act(post.id, [["intent", "email-readers"]]);
    expect(sent.status).toBe(302);
    expect(toastOf(sent)).toMatchObject({
      title: "Emailing the post",
      description: "The email goes to 1 reader, a few each second.",
    });
    const mails = await sendEverything();
    expect(mails.map((m) => m.to)).toEqual(["fan@example.test"]);
    expect(mails[0]!.text).toContain("because you subscribed");
  });

  it("refuses to email a draft, and changes nothing", async () => {
    const post = await draftPost("public");
    const answer = await act(post.id, [["intent", "email-readers"]]);
    expect(answer.status).toBe(400);
    expect(answer.body.emailError).toBe("Publish the post first: only a published post is emailed.");
    expect(await handle.db.select().from(newsletters)).toEqual([]);
    expect(await handle.db.select().from(emailOutbox)).toEqual([]);
    const [row] = await handle.db.select().from(blogPosts).where(eq(blogPosts.id, post.id));
    expect(row!.published).toBe(false);
  });
});
