import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/db/client.server";
import { contactSubmissions, dataAccessLinks, emailOutbox, orders } from "~/db/schema";
import { fixedClock } from "~/lib/clock";
import { createMemberSession } from "~/memberships/member-session.server";
import * as download from "~/routes/your-data-download";
import * as open from "~/routes/your-data-open";
import * as yourData from "~/routes/your-data";
import { cookiePair, get, memberWithPayment, post } from "../support/account";
import { createTestDatabase, testContext } from "../support/test-db";

// Issue 42: a customer who is not a member reaches "Your data" by a link emailed to her address and
// sees, and downloads as JSON and as a web page, every record that names it.

const NOW = "2025-09-20T10:00:00+02:00";
const clock = fixedClock(NOW);
const THANDI = "thandi.mokoena@example.test";
let handle: DatabaseHandle;
let clientIp = 0;

/** Each request from its own address, unless a test means to hit the per-client limit. */
const context = (ip?: string) => testContext(handle, { clock, clientIp: ip ?? `198.51.100.${++clientIp}` });

async function anOrder(reference: string, email: string, item: string, cents: number) {
  await handle.db.insert(orders).values({
    reference,
    orderType: "product",
    itemName: item,
    amountCents: cents,
    customerFirstName: "Thandi",
    customerLastName: "Mokoena",
    customerEmail: email,
    customerPhone: "+27821234567",
    customerAddress: "1 Long Street, Cape Town",
    provider: "simulator",
    idempotencyKey: `your-data-${reference}`,
    status: "paid",
  });
}

beforeAll(async () => {
  handle = await createTestDatabase();
  await anOrder("HB-THANDI1", "Thandi.Mokoena@example.test", "Candy Earrings", 25000);
  await anOrder("HB-THANDI2", THANDI, "Tablecloth Skirt", 65000);
  await anOrder("HB-OTHER01", "someone.else@example.test", "Patchwork Bag", 40000);
  await handle.db.insert(contactSubmissions).values({
    firstName: "Thandi",
    lastName: "Mokoena",
    email: THANDI,
    subject: "Sizing",
    message: "Does the skirt come in a size 36?",
  });
});
afterAll(() => handle?.close());

const linkRows = async () => (await handle.db.select({ n: count() }).from(dataAccessLinks))[0]!.n;
const outboxTo = (to: string) => handle.db.select().from(emailOutbox).where(eq(emailOutbox.toAddress, to));

/** Asks for a link and opens it, as the emailed message's button would: the data session's cookie. */
async function openEmailedLink(email: string): Promise<string> {
  const asked = await post(yourData.action, context(), "/your-data", { intent: "request-link", email });
  expect(asked.status).toBe(200);
  const [mail] = (await outboxTo(email.toLowerCase()))
    .filter((m) => m.subject === "Your Honey Bee data link")
    .slice(-1);
  const token = /\/your-data\/open\?token=([A-Za-z0-9_-]+)/.exec(mail!.textBody)![1]!;
  const page = await get(open.loader, context(), `/your-data/open?token=${token}`);
  expect(page.body).toMatchObject({ token, problem: null });
  const opened = await post(open.action, context(), "/your-data/open", { token });
  expect(opened.status).toBe(302);
  expect(opened.location).toBe("/your-data");
  const again = await post(open.action, context(), "/your-data/open", { token });
  expect(again.status).toBe(410);
  expect(again.body).toMatchObject({ problem: expect.stringContaining("already been used") });
  return cookiePair(opened.headers.get("set-cookie"));
}

describe("Your data, by an emailed link", () => {
  it("a customer with two orders and a message sees all three, and nobody else's", async () => {
    const cookie = await openEmailedLink("Thandi.Mokoena@example.test");
    const page = await get(yourData.loader, context(), "/your-data", cookie);
    expect(page.headers.get("cache-control")).toBe("private, no-store");
    const body = page.body as { identified: true; records: { sections: { key: string; records: unknown[] }[] } };
    const section = (key: string) => body.records.sections.find((s) => s.key === key)!.records;
    expect(section("orders")).toEqual([
      expect.objectContaining({ Reference: "HB-THANDI1", Amount: "R 250.00", Phone: "+27821234567" }),
      expect.objectContaining({ Reference: "HB-THANDI2", Amount: "R 650.00", Address: "1 Long Street, Cape Town" }),
    ]);
    expect(section("messages")).toEqual([
      expect.objectContaining({ Subject: "Sizing", Message: "Does the skirt come in a size 36?" }),
    ]);
    expect(JSON.stringify(body)).not.toContain("HB-OTHER01");

    const json = await get(download.loader, context(), "/your-data/download/json", cookie, { format: "json" });
    expect(json.headers.get("content-disposition")).toMatch(
      /^attachment; filename="honey-bee-my-data-2025-09-20\.json"$/,
    );
    expect(json.headers.get("cache-control")).toBe("private, no-store");
    const text = String(json.body);
    for (const expected of ["HB-THANDI1", "HB-THANDI2", "Does the skirt come in a size 36?"])
      expect(text).toContain(expected);
    expect(text).not.toContain("HB-OTHER01");
    const html = await get(download.loader, context(), "/your-data/download/html", cookie, { format: "html" });
    expect(html.headers.get("content-type")).toBe("text/html; charset=utf-8");
    for (const expected of ["HB-THANDI1", "HB-THANDI2", "Does the skirt come in a size 36?"])
      expect(String(html.body)).toContain(expected);
  });

  it("an unknown address gets the same answer and no email; a bad one a field message and no change", async () => {
    const before = await linkRows();
    const unknown = await post(yourData.action, context(), "/your-data", {
      intent: "request-link",
      email: "nobody@example.test",
    });
    expect(unknown.status).toBe(200);
    expect(unknown.body).toMatchObject({
      ok: true,
      message:
        "If we hold anything under nobody@example.test, a link to it is on its way. It works once, for 30 minutes.",
    });
    expect(await outboxTo("nobody@example.test")).toEqual([]);
    for (const email of ["", "not-an-email", "thandi@", `${"x".repeat(250)}@example.test`]) {
      const bad = await post(yourData.action, context(), "/your-data", { intent: "request-link", email });
      expect(bad.status, email).toBe(400);
      expect((bad.body as { errors: { email: string } }).errors.email, email).toMatch(/email/i);
    }
    expect(await post(yourData.action, context(), "/your-data", { intent: "other" })).toMatchObject({ status: 400 });
    expect(await linkRows()).toBe(before);
  });

  it("is rate limited like the sign-in form: per address and per client", async () => {
    const email = "someone.else@example.test";
    for (let i = 0; i < 3; i++)
      expect((await post(yourData.action, context(), "/your-data", { intent: "request-link", email })).status).toBe(
        200,
      );
    const limited = await post(yourData.action, context(), "/your-data", { intent: "request-link", email });
    expect(limited.status).toBe(429);
    expect((await outboxTo(email)).length).toBe(3);
    const ip = "203.0.113.9";
    const answers = [];
    for (let i = 0; i < 6; i++)
      answers.push(
        (
          await post(yourData.action, context(ip), "/your-data", {
            intent: "request-link",
            email: `p${i}@example.test`,
          })
        ).status,
      );
    expect(answers).toEqual([200, 200, 200, 200, 200, 429]);
  });

  it("without a link or a session the page offers the form, and the downloads answer 401", async () => {
    expect((await get(yourData.loader, context(), "/your-data")).body).toEqual({ identified: false });
    const json = await get(download.loader, context(), "/your-data/download/json", undefined, { format: "json" });
    expect(json.status).toBe(401);
    const junk = await get(download.loader, context(), "/your-data/download/xml", undefined, { format: "xml" });
    expect(junk.status).toBe(404);
  });
});

describe("Your data, for a signed-in member", () => {
  it("shows the member's orders and membership history without a link", async () => {
    const { member } = await memberWithPayment(handle, {
      email: "amahle@example.test",
      name: "Amahle Dube",
      reference: "HB-AMAHLE1",
    });
    const cookie = cookiePair(await createMemberSession(handle.db, context(), member.id));
    const page = await get(yourData.loader, context(), "/your-data", cookie);
    const text = JSON.stringify(page.body);
    expect(text).toContain("HB-AMAHLE1");
    expect(text).toContain("Amahle Dube");
    expect(text).toContain('"key":"member-history"');
    expect(text).not.toContain("HB-THANDI1");
    const json = await get(download.loader, context(), "/your-data/download/json", cookie, { format: "json" });
    expect(String(json.body)).toContain("HB-AMAHLE1");
  });
});
