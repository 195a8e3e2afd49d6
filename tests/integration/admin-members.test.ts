import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/db/client.server";
import { emailOutbox, members } from "~/db/schema";
import type { MemberListQuery } from "~/memberships/member-list-query";
import { activeMemberFigures, listMembersForAdmin, memberFigures } from "~/memberships/members-admin.server";
import { guardedRoute } from "../support/route-middleware";
import { createTestDatabase, testContext } from "../support/test-db";
import { signedInOwner } from "../support/owner";
import { routeAnswer } from "../support/route-answer";

// Admin routes as React Router calls them: their layouts' middleware checks the session (decision 110).
const dashboard = guardedRoute("routes/admin/dashboard.tsx");
const memberPage = guardedRoute("routes/admin/member.tsx");
const memberList = guardedRoute("routes/admin/members.tsx");
const membersExport = guardedRoute("routes/admin/members-export.ts");

/**
 * The owner's list of members (issue 21): search, filters, counts per status, the monthly recurring
 * revenue, the CSV export and the dashboard's figures, through the real loaders with rows inserted as
 * the core would leave them. The actions (gift, cancel, resend) are in admin-members-actions.test.ts.
 */
const BASE = "http://localhost:3000";
const JOINED = new Date("2025-06-01T10:00:00+02:00");
let handle: DatabaseHandle;
let cookie: string;

type Seed = {
  name: string;
  email: string;
  tierSlug: string;
  status: "active" | "due" | "lapsed" | "cancelled";
  paidUntil: string;
};
/**
 * Seeded tier prices: style-starter R150, vip-sustainable-human R1,500, glow-bee-journey R450, creative-healer R200,
 * upcycle-kings-queens none.
 */
const PEOPLE: Seed[] = [
  {
    name: "Thandi Nkosi",
    email: "thandi@example.test",
    tierSlug: "style-starter",
    status: "active",
    paidUntil: "2025-10-01",
  },
  {
    name: "Lerato Mokoena",
    email: "lerato@example.test",
    tierSlug: "vip-sustainable-human",
    status: "active",
    paidUntil: "2025-09-20",
  },
  {
    name: "Pieter 100% van Wyk",
    email: "pieter_w@example.test",
    tierSlug: "glow-bee-journey",
    status: "due",
    paidUntil: "2025-09-08",
  },
  {
    name: "Anna Smith",
    email: "anna@shop.test",
    tierSlug: "creative-healer",
    status: "lapsed",
    paidUntil: "2025-08-01",
  },
  {
    name: "Zanele Dube",
    email: "zanele@example.test",
    tierSlug: "style-starter",
    status: "cancelled",
    paidUntil: "2025-09-30",
  },
  {
    name: "Kim Naidoo",
    email: "kim@example.test",
    tierSlug: "upcycle-kings-queens",
    status: "active",
    paidUntil: "2025-09-25",
  },
];

beforeAll(async () => {
  handle = await createTestDatabase();
  cookie = await signedInOwner(handle);
  await handle.db.insert(members).values(PEOPLE.map((p) => ({ ...p, phone: "082 555 0101", joinedAt: JOINED })));
});
afterAll(() => handle?.close());

const query = (q: Partial<MemberListQuery> = {}): MemberListQuery => ({ q: "", tier: "", status: "", page: 1, ...q });
/** The test clock's South African day (tests/support/test-db.ts). */
const TODAY = "2025-09-10";
const names = async (q: Partial<MemberListQuery>, today = TODAY) =>
  (await listMembersForAdmin(handle.db, query(q), today)).members.map((m) => m.name.split(" ")[0]);
const get = (path: string) => new Request(`${BASE}${path}`, { headers: { Cookie: cookie } });

describe("the members list", () => {
  it("finds members by any part of the name or email, in any case", async () => {
    expect(await names({ q: "thandi" })).toEqual(["Thandi"]);
    expect(await names({ q: "NKOSI" })).toEqual(["Thandi"]);
    expect(await names({ q: "  mokoena " })).toEqual(["Lerato"]);
    expect(await names({ q: "shop.test" })).toEqual(["Anna"]);
    // An address, or its start, is looked up by its prefix; a domain by any part.
    expect(await names({ q: "LERATO@exam" })).toEqual(["Lerato"]);
    expect(await names({ q: "@shop" })).toEqual(["Anna"]);
    expect(await names({ q: "nobody" })).toEqual([]);
  });

  it("treats % and _ in the search as the characters themselves, not as wildcards", async () => {
    expect(await names({ q: "%" })).toEqual(["Pieter"]);
    expect(await names({ q: "_" })).toEqual(["Pieter"]);
    expect(await names({ q: "100%" })).toEqual(["Pieter"]);
    expect(await names({ q: "\\" })).toEqual([]);
  });

  it("filters by tier and by status, together with the search, the next to pay first", async () => {
    expect(await names({})).toEqual(["Anna", "Pieter", "Lerato", "Kim", "Zanele", "Thandi"]);
    expect(await names({ tier: "style-starter" })).toEqual(["Zanele", "Thandi"]);
    expect(await names({ status: "active" })).toEqual(["Lerato", "Kim", "Thandi"]);
    expect(await names({ tier: "style-starter", status: "active" })).toEqual(["Thandi"]);
    expect(await names({ q: "example", status: "due" })).toEqual(["Pieter"]);
    expect(await names({ tier: "no-such-tier" })).toEqual([]);
  });

  it('"soon" finds members due within 7 days or due and lapsing, never the lapsed or cancelled', async () => {
    expect(await names({ status: "soon" })).toEqual(["Pieter"]);
    // Ten days on, the two paid until 20 and 25 September are within the week; Zanele cancelled, Anna lapsed.
    expect(await names({ status: "soon" }, "2025-09-20")).toEqual(["Pieter", "Lerato", "Kim"]);
    const page = await routeAnswer(() =>
      memberList.loader({
        request: get("/admin/members?status=soon"),
        params: {},
        context: testContext(handle),
      } as never),
    );
    expect((page.body as { query: MemberListQuery; total: number }).query.status).toBe("soon");
    expect((page.body as { total: number }).total).toBe(1);
  });

  it("the page reads its filters from the query and ignores a status that is not one", async () => {
    const page = await routeAnswer(() =>
      memberList.loader({
        request: get("/admin/members?status=active&tier=style-starter&q=th"),
        params: {},
        context: testContext(handle),
      } as never),
    );
    expect(page.status).toBe(200);
    const body = page.body as {
      query: MemberListQuery;
      members: { email: string; tierName: string; paidUntil: string }[];
      total: number;
      tiers: { slug: string }[];
    };
    expect(body.query).toEqual({ q: "th", tier: "style-starter", status: "active", page: 1 });
    expect(body.members).toEqual([
      expect.objectContaining({ email: "thandi@example.test", tierName: "The Style Starter", paidUntil: "2025-10-01" }),
    ]);
    expect(body.tiers.map((t) => t.slug)).toContain("upcycle-kings-queens");
    const odd = await routeAnswer(() =>
      memberList.loader({
        request: get("/admin/members?status=paid"),
        params: {},
        context: testContext(handle),
      } as never),
    );
    expect((odd.body as { query: MemberListQuery; total: number }).query.status).toBe("");
    expect((odd.body as { total: number }).total).toBe(PEOPLE.length);
  });
});

describe("counts and monthly recurring revenue", () => {
  it("counts every member by status, and MRR adds up active and due members' tier prices, due ones at risk", async () => {
    const figures = await memberFigures(handle.db);
    expect(figures.counts).toEqual({ active: 3, due: 1, lapsed: 1, cancelled: 1 });
    expect(figures.total).toBe(6);
    expect(figures.active).toBe(3);
    // Thandi R150 + Lerato R1,500 + Kim's Contact Us tier (no price) R0 + Pieter, due, R450 (at risk);
    // lapsed and cancelled are left out (issue 41).
    expect(figures.mrrCents).toBe(210_000);
    expect(figures).toMatchObject({ atRisk: 1, atRiskCents: 45_000 });
    expect(await activeMemberFigures(handle.db)).toEqual({
      active: 3,
      mrrCents: 210_000,
      atRisk: 1,
      atRiskCents: 45_000,
    });
  });

  it("the dashboard shows active members and MRR beside its counters, linking to the members", async () => {
    const result = await routeAnswer(() =>
      dashboard.loader({ request: get("/admin"), params: {}, context: testContext(handle) } as never),
    );
    expect(result.status).toBe(200);
    expect((result.body as { memberFigures: unknown }).memberFigures).toEqual({
      active: 3,
      mrrCents: 210_000,
      atRisk: 1,
      atRiskCents: 45_000,
    });
  });

  it("an empty shop has no members and an MRR of R 0.00", async () => {
    const empty = await createTestDatabase();
    try {
      expect(await memberFigures(empty.db)).toEqual({
        counts: { active: 0, due: 0, lapsed: 0, cancelled: 0 },
        total: 0,
        active: 0,
        mrrCents: 0,
        atRisk: 0,
        atRiskCents: 0,
      });
      expect(await activeMemberFigures(empty.db)).toEqual({ active: 0, mrrCents: 0, atRisk: 0, atRiskCents: 0 });
    } finally {
      await empty.close();
    }
  });
});

describe("the CSV export", () => {
  it("streams the filtered list with a byte-order mark, tiers by name and a cell that cannot run as a formula", async () => {
    const [formula] = await handle.db
      .insert(members)
      .values({
        name: "=HYPERLINK(1)",
        email: "formula@example.test",
        phone: "",
        tierSlug: "style-starter",
        status: "active",
        paidUntil: "2025-10-05",
        joinedAt: JOINED,
        nextTierSlug: "vip-sustainable-human",
      })
      .returning();
    try {
      const response = (await membersExport.loader({
        request: get("/admin/members/export?tier=style-starter&status=active"),
        params: {},
        context: testContext(handle),
      } as never)) as Response;
      expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
      expect(response.headers.get("content-disposition")).toBe('attachment; filename="honey-members-2025-09-10.csv"');
      const bytes = new Uint8Array(await response.arrayBuffer());
      expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      const rows = new TextDecoder().decode(bytes).trim().split("\r\n");
      expect(rows[0]).toBe("Name,Email,Phone,Tier,Monthly price (ZAR),Next tier,Status,Paid until,Joined,Cancelled");
      expect(rows).toHaveLength(3);
      expect(rows[1]).toBe(
        `Thandi Nkosi,thandi@example.test,082 555 0101,The Style Starter,150.00,,active,2025-10-01,${JOINED.toISOString()},`,
      );
      expect(rows[2]).toMatch(
        /^'=HYPERLINK\(1\),formula@example.test,,The Style Starter,150.00,VIP Sustainable Human\/Woman,active,2025-10-05,/,
      );
    } finally {
      const { eq } = await import("drizzle-orm");
      await handle.db.delete(members).where(eq(members.id, formula!.id));
    }
  });

  it("refuses an anonymous download with 401", async () => {
    const result = await routeAnswer(() =>
      membersExport.loader({
        request: new Request(`${BASE}/admin/members/export`),
        params: {},
        context: testContext(handle),
      } as never),
    );
    expect(result.status).toBe(401);
  });
});

describe("a member's page", () => {
  it("shows the member with the emails queued for them, newest first", async () => {
    const [thandi] = (await listMembersForAdmin(handle.db, query({ q: "thandi" }), TODAY)).members;
    await handle.db.insert(emailOutbox).values([
      {
        toAddress: "thandi@example.test",
        subject: "Your membership renews in 7 days",
        textBody: "t",
        memberId: thandi!.id,
        createdAt: new Date("2025-09-24T07:00:00Z"),
      },
      {
        toAddress: "thandi@example.test",
        subject: "Your membership renews tomorrow",
        textBody: "t",
        memberId: thandi!.id,
        status: "sent",
        createdAt: new Date("2025-09-30T07:00:00Z"),
        sentAt: new Date("2025-09-30T07:01:00Z"),
      },
      { toAddress: "someone@example.test", subject: "Not hers", textBody: "t", memberId: null },
    ]);
    const page = await routeAnswer(() =>
      memberPage.loader({
        request: get(`/admin/members/${thandi!.id}`),
        params: { id: String(thandi!.id) },
        context: testContext(handle),
      } as never),
    );
    expect(page.status).toBe(200);
    const body = page.body as {
      member: Record<string, unknown>;
      emails: { subject: string; status: string; sentAt: string | null }[];
    };
    expect(body.member).toMatchObject({
      name: "Thandi Nkosi",
      email: "thandi@example.test",
      tierName: "The Style Starter",
      tierPriceCents: 15000,
      status: "active",
      paidUntil: "2025-10-01",
      nextTierName: null,
    });
    expect(body.emails.map((e) => [e.subject, e.status, e.sentAt])).toEqual([
      ["Your membership renews tomorrow", "sent", "2025-09-30T07:01:00.000Z"],
      ["Your membership renews in 7 days", "pending", null],
    ]);
  });

  it("an unknown or malformed id is a 404", async () => {
    for (const id of ["999999", "0", "abc", "1.5", "-1", "12345678901"]) {
      const loaded = await routeAnswer(() =>
        memberPage.loader({
          request: get(`/admin/members/${id}`),
          params: { id },
          context: testContext(handle),
        } as never),
      );
      expect(loaded.status, id).toBe(404);
    }
    const posted = await routeAnswer(() =>
      memberPage.action({
        request: new Request(`${BASE}/admin/members/999999`, {
          method: "POST",
          body: new URLSearchParams({ intent: "gift", note: "Thanks" }),
          headers: { Origin: BASE, Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
        }),
        params: { id: "999999" },
        context: testContext(handle),
      } as never),
    );
    expect(posted.status).toBe(404);
  });
});

describe("pagination", () => {
  it("shows 25 members a page and clamps a page past the end to the last", async () => {
    await handle.db.insert(members).values(
      Array.from({ length: 30 }, (_, i) => ({
        name: `Bulk ${i}`,
        email: `bulk${String(i).padStart(2, "0")}@bulk.test`,
        phone: "",
        tierSlug: "starter-bee",
        status: "active" as const,
        paidUntil: "2026-01-01",
        joinedAt: JOINED,
      })),
    );
    const first = await listMembersForAdmin(handle.db, query({ q: "bulk" }), TODAY);
    expect([first.total, first.pages, first.page, first.members.length]).toEqual([30, 2, 1, 25]);
    const last = await listMembersForAdmin(handle.db, query({ q: "bulk", page: 9 }), TODAY);
    expect([last.page, last.members.length]).toEqual([2, 5]);
    expect(new Set([...first.members, ...last.members].map((m) => m.id)).size).toBe(30);
  });
});
