import { eq } from "drizzle-orm";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/db/client.server";
import { emailOutbox, memberLoginTokens, memberSessions } from "~/db/schema";
import { fixedClock } from "~/lib/clock";
import { signInSentMessage, SIGN_IN_LIMITED } from "~/memberships/account-actions.server";
import { signedInMemberId } from "~/memberships/member-session.server";
import { TOKEN_PROBLEMS } from "~/memberships/sign-in-link.server";
import * as account from "~/routes/account";
import * as signIn from "~/routes/account-sign-in";
import * as signOut from "~/routes/account-sign-out";
import { createTestDatabase, testContext } from "../support/test-db";
import { BASE, cookiePair, get, memberWithPayment, post, sha256 } from "../support/account";

// Issue 21: signing in to /account with a one-time link by email (decision 087).

const NOW = "2025-09-10T10:00:00+02:00";
const MEMBER = "thandi@example.test";
let handle: DatabaseHandle;
let clock: ReturnType<typeof fixedClock>;
let memberId: number;

beforeEach(async () => {
  await handle?.close();
  handle = await createTestDatabase();
  clock = fixedClock(NOW);
  ({
    member: { id: memberId },
  } = await memberWithPayment(handle, { email: MEMBER, name: "Thandi Mokoena", reference: "HB-THANDI" }));
});
afterAll(() => handle?.close());

const context = (clientIp = "203.0.113.7", config = {}) => testContext(handle, { clock, clientIp, config });
const askForLink = (email: string, clientIp?: string) =>
  post(account.action, context(clientIp), "/account", { intent: "request-link", email }, undefined);

/** The link in the newest sign-in email, and its token. */
async function linkFromEmail(): Promise<{ link: string; token: string }> {
  const mails = await handle.db.select().from(emailOutbox).orderBy(emailOutbox.id);
  const link = /http:\/\/localhost:3000\/account\/sign-in\?token=([A-Za-z0-9_-]+)/.exec(mails.at(-1)!.textBody);
  expect(link).not.toBeNull();
  return { link: link![0], token: link![1]! };
}

describe("asking for a sign-in link", () => {
  it("emails a member a one-time link (the member's email history has it) and keeps only the token's hash, for 15 minutes", async () => {
    const answer = await askForLink("  Thandi@Example.TEST ");
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ ok: true, message: signInSentMessage("Thandi@Example.TEST") });
    const mails = await handle.db.select().from(emailOutbox);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ toAddress: MEMBER, memberId, subject: "Your Honey Bee sign-in link" });
    const { token } = await linkFromEmail();
    expect(Buffer.from(token, "base64url")).toHaveLength(32);
    const tokens = await handle.db.select().from(memberLoginTokens);
    expect(tokens).toEqual([
      {
        tokenHash: sha256(token),
        memberId,
        createdAt: new Date(NOW),
        expiresAt: new Date(new Date(NOW).getTime() + 15 * 60_000),
        usedAt: null,
      },
    ]);
  });

  it("gives an unknown address exactly the same answer and page, and sends nothing", async () => {
    const known = await askForLink(MEMBER);
    const unknown = await askForLink("nobody@example.test");
    expect(unknown.status).toBe(known.status);
    expect(unknown.body).toEqual({ ...known.body, message: known.body.message.replace(MEMBER, "nobody@example.test") });
    expect([...unknown.headers]).toEqual([...known.headers]);
    const mails = await handle.db.select().from(emailOutbox);
    expect(mails.map((m) => m.toAddress)).toEqual([MEMBER]);
    expect(await handle.db.select().from(memberLoginTokens)).toHaveLength(1);
  });

  it("refuses a bad address with a message under the field, and stores and sends nothing", async () => {
    for (const email of ["", "not-an-email", `${"a".repeat(250)}@example.test`]) {
      const answer = await askForLink(email);
      expect(answer.status).toBe(400);
      expect(answer.body.ok).toBe(false);
      expect(answer.body.errors.email).toMatch(/email/i);
    }
    expect(await handle.db.select().from(emailOutbox)).toEqual([]);
    expect(await handle.db.select().from(memberLoginTokens)).toEqual([]);
  });

  it("limits requests per client address (5 in 15 minutes) and per email address (3 in 15 minutes), members or not", async () => {
    for (let i = 0; i < 5; i++) expect((await askForLink(`visitor${i}@example.test`, "198.51.100.1")).status).toBe(200);
    const sixth = await askForLink(MEMBER, "198.51.100.1");
    expect(sixth.status).toBe(429);
    expect(sixth.body.message).toBe(SIGN_IN_LIMITED);

    for (let i = 0; i < 3; i++) expect((await askForLink(MEMBER, `198.51.100.${10 + i}`)).status).toBe(200);
    const fourth = await askForLink(MEMBER.toUpperCase(), "198.51.100.20");
    expect(fourth.status).toBe(429);
    expect(fourth.body.message).toBe(SIGN_IN_LIMITED);
    // An unknown address is counted the same way, so the limit tells nothing about who is a member.
    for (let i = 0; i < 3; i++) await askForLink("stranger@example.test", `198.51.100.${30 + i}`);
    expect((await askForLink("stranger@example.test", "198.51.100.40")).status).toBe(429);
    expect(await handle.db.select().from(emailOutbox)).toHaveLength(3);

    clock.set(new Date(new Date(NOW).getTime() + 15 * 60_000));
    expect((await askForLink(MEMBER, "198.51.100.1")).status).toBe(200);
  });
});

describe("using the link", () => {
  it("shows a Sign in button on GET without using the link; the POST signs in once and only once", async () => {
    await askForLink(MEMBER);
    const { token } = await linkFromEmail();
    for (let i = 0; i < 2; i++) {
      const page = await get(signIn.loader, context(), `/account/sign-in?token=${token}`);
      expect(page.body).toEqual({ token, problem: null });
    }
    const first = await post(signIn.action, context(), `/account/sign-in?token=${token}`, { token });
    expect(first.status).toBe(302);
    expect(first.headers.get("location")).toBe("/account");
    const cookie = cookiePair(first.headers.get("set-cookie"));
    expect(cookie).toMatch(/^member_session=[A-Za-z0-9_-]{43}$/);
    const session = new Request(`${BASE}/account`, { headers: { Cookie: cookie } });
    expect(await signedInMemberId(session, context())).toBe(memberId);
    const sessions = await handle.db.select().from(memberSessions);
    expect(sessions.map((s) => s.idHash)).toEqual([sha256(cookie.split("=")[1]!)]);

    const again = await post(signIn.action, context(), `/account/sign-in?token=${token}`, { token });
    expect(again.status).toBe(410);
    expect(again.body.problem).toBe(TOKEN_PROBLEMS.used);
    expect((await get(signIn.loader, context(), `/account/sign-in?token=${token}`)).body.problem).toBe(
      TOKEN_PROBLEMS.used,
    );
    expect(await handle.db.select().from(memberSessions)).toHaveLength(1);
  });

  it("lets only one of two simultaneous sign-ins with the same link through", async () => {
    await askForLink(MEMBER);
    const { token } = await linkFromEmail();
    const results = await Promise.all(
      [0, 1, 2].map(() => post(signIn.action, context(), "/account/sign-in", { token })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([302, 410, 410]);
    expect(await handle.db.select().from(memberSessions)).toHaveLength(1);
  });

  it("works until 15 minutes have passed, not at 15 minutes", async () => {
    await askForLink(MEMBER);
    const { token } = await linkFromEmail();
    clock.set(new Date(new Date(NOW).getTime() + 15 * 60_000 - 1000));
    expect((await get(signIn.loader, context(), `/account/sign-in?token=${token}`)).body.problem).toBeNull();
    clock.set(new Date(new Date(NOW).getTime() + 15 * 60_000));
    expect((await get(signIn.loader, context(), `/account/sign-in?token=${token}`)).body.problem).toBe(
      TOKEN_PROBLEMS.expired,
    );
    const late = await post(signIn.action, context(), "/account/sign-in", { token });
    expect(late.status).toBe(410);
    expect(late.body.problem).toBe(TOKEN_PROBLEMS.expired);
    expect(await handle.db.select().from(memberSessions)).toEqual([]);
    const [row] = await handle.db.select().from(memberLoginTokens);
    expect(row!.usedAt).toBeNull();
  });

  it("refuses an unknown or malformed token with the message and the form to ask again", async () => {
    for (const token of ["", "short", "x".repeat(43), "a".repeat(500), "<script>"]) {
      const page = await get(signIn.loader, context(), `/account/sign-in?token=${encodeURIComponent(token)}`);
      expect(page.body).toEqual({ token: null, problem: TOKEN_PROBLEMS.unknown });
      const used = await post(signIn.action, context(), "/account/sign-in", { token });
      expect(used.status).toBe(410);
    }
    expect(await handle.db.select().from(memberSessions)).toEqual([]);
  });

  it("refuses a sign-in posted from another site", async () => {
    await askForLink(MEMBER);
    const { token } = await linkFromEmail();
    const request = new Request(`${BASE}/account/sign-in`, {
      method: "POST",
      headers: { Origin: "https://evil.example", "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token }),
    });
    const answer = await (async () => {
      try {
        return await signIn.action({ request, context: context(), params: {} } as never);
      } catch (thrown) {
        return thrown as { init?: ResponseInit };
      }
    })();
    expect((answer as { init?: ResponseInit }).init?.status).toBe(403);
    expect(await handle.db.select().from(memberSessions)).toEqual([]);
  });
});

describe("the member's session cookie", () => {
  async function signInWith(config = {}) {
    await post(account.action, testContext(handle, { clock, config }), "/account", {
      intent: "request-link",
      email: MEMBER,
    });
    const { token } = await linkFromEmail();
    return post(signIn.action, testContext(handle, { clock, config }), "/account/sign-in", { token });
  }

  it("in production is __Host-member_session: Secure, HttpOnly, SameSite=Lax, Path=/, 30 days, no Domain", async () => {
    const answer = await signInWith({ isProduction: true, siteUrl: BASE });
    const setCookie = answer.headers.get("set-cookie")!;
    expect(setCookie).toMatch(
      /^__Host-member_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=2592000; Secure$/,
    );
    const production = testContext(handle, { clock, config: { isProduction: true } });
    const token = cookiePair(setCookie).split("=")[1]!;
    expect(
      await signedInMemberId(
        new Request(`${BASE}/account`, { headers: { Cookie: `__Host-member_session=${token}` } }),
        production,
      ),
    ).toBe(memberId);
    // The plain name is not read in production (it could be set over http or by a sibling domain).
    expect(
      await signedInMemberId(
        new Request(`${BASE}/account`, { headers: { Cookie: `member_session=${token}` } }),
        production,
      ),
    ).toBeUndefined();
  });

  it("ends after 30 days, and signing out deletes the session and clears the cookie", async () => {
    const cookie = cookiePair((await signInWith()).headers.get("set-cookie"));
    const request = () => new Request(`${BASE}/account`, { headers: { Cookie: cookie } });
    clock.set(new Date(new Date(NOW).getTime() + 30 * 86_400_000 - 1000));
    expect(await signedInMemberId(request(), context())).toBe(memberId);
    clock.set(new Date(new Date(NOW).getTime() + 30 * 86_400_000));
    expect(await signedInMemberId(request(), context())).toBeUndefined();

    clock.set(NOW);
    const out = await post(signOut.action, context(), "/account/sign-out", {}, cookie);
    expect(out.status).toBe(302);
    expect(out.headers.get("location")).toBe("/account");
    expect(out.headers.get("set-cookie")).toBe("member_session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0");
    expect(await handle.db.select().from(memberSessions).where(eq(memberSessions.memberId, memberId))).toEqual([]);
    expect(await signedInMemberId(request(), context())).toBeUndefined();
    const page = await get(account.loader, context(), "/account", cookie);
    expect(page.body).toEqual({ signedIn: false });
  });
});
