import { afterAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { DatabaseHandle } from "~/db/client.server";
import { contactSubmissions, emailOutbox, rateLimitHits } from "~/db/schema";
import { action, loader } from "~/routes/contact";
import { createTestDatabase, testContext } from "../support/test-db";

let handle: DatabaseHandle;
afterAll(() => handle?.close());
beforeEach(async () => {
  await handle?.close();
  handle = await createTestDatabase();
});

const valid = {
  firstName: "Thandi",
  lastName: "Mokoena",
  email: "thandi@example.com",
  subject: "Custom order",
  message: "Can you upcycle my grandmother's tablecloth?",
};

function post(fields: Record<string, string>, ip = "203.0.113.9", headers: Record<string, string> = {}) {
  const body = new URLSearchParams(fields);
  const request = new Request("http://localhost/contact", {
    method: "POST",
    body,
    headers: { "user-agent": "vitest-agent", ...headers },
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return action({ request, context: testContext(handle, { clientIp: ip }), params: {} } as any) as Promise<any>;
}

async function stored() {
  return {
    submissions: await handle.db.select().from(contactSubmissions),
    emails: await handle.db.select().from(emailOutbox),
  };
}

describe("contact action", () => {
  it("stores exactly what was sent and queues one owner email", async () => {
    const res = await post({ ...valid, sessionId: "sess-1" });
    expect(res.data.ok).toBe(true);
    expect(res.data.toast.title).toBe("Message sent successfully!");
    const { submissions, emails } = await stored();
    expect(submissions).toHaveLength(1);
    expect(submissions[0]).toMatchObject({ ...valid, sessionId: "sess-1", userAgent: "vitest-agent" });
    expect(emails).toHaveLength(1);
    expect(emails[0]).toMatchObject({
      toAddress: testContext(handle).config.mail.ownerEmail,
      dedupeKey: `contact:${submissions[0]!.id}`,
    });
    expect(emails[0]!.textBody).toContain(valid.message);
  });

  for (const field of Object.keys(valid)) {
    it(`refuses a missing ${field}`, async () => {
      const res = await post({ ...valid, [field]: "  " });
      expect(res.init.status).toBe(400);
      expect(res.data.toast).toMatchObject({ title: "Please fill in all fields", variant: "destructive" });
      expect(res.data.values.firstName).toBe(field === "firstName" ? "  " : valid.firstName);
      const { submissions, emails } = await stored();
      expect(submissions).toHaveLength(0);
      expect(emails).toHaveLength(0);
    });
  }

  it("refuses an invalid email", async () => {
    const res = await post({ ...valid, email: "not-an-email" });
    expect(res.data.toast.description).toBe("Please enter a valid email address.");
    expect((await stored()).submissions).toHaveLength(0);
  });

  it("refuses an oversized message", async () => {
    const res = await post({ ...valid, message: "x".repeat(5001) });
    expect(res.data.toast.description).toBe("Message must be at most 5000 characters.");
    expect((await stored()).submissions).toHaveLength(0);
  });

  it("silently drops honeypot submissions", async () => {
    const res = await post({ ...valid, website: "http://spam.example" });
    expect(res.data.ok).toBe(true);
    const { submissions, emails } = await stored();
    expect(submissions).toHaveLength(0);
    expect(emails).toHaveLength(0);
  });

  it("rate limits a visitor after 5 messages in 10 minutes, per client", async () => {
    for (let i = 0; i < 5; i++) expect((await post(valid)).data.ok).toBe(true);
    const limited = await post(valid);
    expect(limited.init.status).toBe(429);
    expect(limited.data.toast.title).toBe("Too many messages");
    expect((await stored()).submissions).toHaveLength(5);
    expect((await stored()).emails).toHaveLength(5);
    expect((await post(valid, "198.51.100.1")).data.ok).toBe(true);
    expect((await handle.db.select().from(rateLimitHits)).length).toBe(2);
  });

  it("counts the hit, stores the message and queues the notice in one statement", async () => {
    await post(valid);
    // Every statement of either driver is prepared by Drizzle's session first.
    const session = (handle.db as unknown as { session: { prepareQuery: (query: { sql: string }) => unknown } })
      .session;
    const prepared = vi.spyOn(session, "prepareQuery");
    const res = await post({ ...valid, subject: "Second" }, "203.0.113.10", { "user-agent": "" });
    // The shop's settings, read at most every 250 ms and usually from memory, are not the message's.
    const statements = prepared.mock.calls
      .map(([query]) => query.sql)
      .filter((text) => !/from "app_settings"/.test(text));
    prepared.mockRestore();
    expect(res.data.ok).toBe(true);
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatch(
      /insert into "rate_limit_hits"[\s\S]*insert into "contact_submissions"[\s\S]*insert into "email_outbox"/,
    );
    const { submissions, emails } = await stored();
    const second = submissions.find((s) => s.subject === "Second")!;
    expect(second).toMatchObject({ ...valid, subject: "Second", sessionId: null, userAgent: null });
    expect(emails.map((e) => e.dedupeKey).sort()).toEqual(
      [`contact:${submissions[0]!.id}`, `contact:${second.id}`].sort(),
    );
    expect(emails.find((e) => e.dedupeKey === `contact:${second.id}`)).toMatchObject({
      subject: expect.stringContaining("Second"),
      attachments: null,
      orderId: null,
      htmlBody: expect.any(String),
    });
  });

  it("a bot and a refused message count against the limit before the answer", async () => {
    for (let i = 0; i < 3; i++) await post({ ...valid, website: "http://spam.example" });
    for (let i = 0; i < 2; i++) await post({ ...valid, email: "nope" });
    const limited = await post(valid);
    expect(limited.init.status).toBe(429);
    const { submissions, emails } = await stored();
    expect(submissions).toHaveLength(0);
    expect(emails).toHaveLength(0);
  });

  describe("posted as a page, before JavaScript (Fetch Metadata: document)", () => {
    /** What a browser sends with a form it submits itself: the answer becomes the page. */
    const asPage = { "sec-fetch-dest": "document", "sec-fetch-mode": "navigate" };

    it("a stored message is followed by a 303 to the page that says so, which the loader shows as sent", async () => {
      const res = await post(valid, "203.0.113.20", asPage);
      expect(res).toBeInstanceOf(Response);
      expect(res.status).toBe(303);
      expect(res.headers.get("location")).toBe("/contact?sent=1");
      expect((await stored()).submissions).toHaveLength(1);
      expect(loader({ request: new Request("http://localhost/contact?sent=1") } as never)).toEqual({
        subject: "",
        sent: true,
      });
      expect(loader({ request: new Request("http://localhost/contact?sent=yes&subject=Hi") } as never)).toEqual({
        subject: "Hi",
        sent: false,
      });
    });

    it("a refusal stays in place with what was typed, and nothing is stored", async () => {
      const res = await post({ ...valid, email: "not-an-email" }, "203.0.113.21", asPage);
      expect(res.init.status).toBe(400);
      expect(res.data.values.message).toBe(valid.message);
      expect((await stored()).submissions).toHaveLength(0);
    });

    it("a bot filling the hidden field gets the same redirect, and nothing is stored", async () => {
      const res = await post({ ...valid, website: "http://spam.example" }, "203.0.113.22", asPage);
      expect(res.status).toBe(303);
      expect((await stored()).submissions).toHaveLength(0);
    });

    it("the fetcher's post (Fetch Metadata: empty) gets the result itself", async () => {
      const res = await post(valid, "203.0.113.23", { "sec-fetch-dest": "empty", "sec-fetch-mode": "cors" });
      expect(res.data).toMatchObject({ ok: true, toast: { title: "Message sent successfully!" } });
    });
  });
});
