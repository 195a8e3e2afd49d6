import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/db/client.server";
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { memberPeriods, members, memberSubscriptions, orders } from "~/db/schema";
import { membersByMonth, recurringRevenue } from "~/memberships/member-figures.server";
import { createTestDatabase } from "../support/test-db";

// Honest figures (issue 41): MRR of active and due members, due ones at risk; members joined, renewed and lapsed by month.
let handle: DatabaseHandle;

type Status = "active" | "due" | "lapsed" | "cancelled";
async function member(name: string, tierSlug: string, status: Status, joined: string, paidUntil: string) {
  const [row] = await handle.db
    .insert(members)
    .values({
      name,
      email: `${name.toLowerCase().replace(/\W+/g, ".")}@example.test`,
      phone: "082 555 0101",
      tierSlug,
      status,
      paidUntil,
      // 23:30 in South Africa: the day given, whatever the UTC day.
      joinedAt: new Date(`${joined}T23:30:00+02:00`),
    })
    .returning();
  return row!;
}
const paid = (memberId: number, startsOn: string, endsOn: string) =>
  handle.db
    .insert(memberPeriods)
    .values({ memberId, kind: "payment", tierSlug: "style-starter", amountCents: 15_000, startsOn, endsOn });

beforeAll(async () => {
  handle = await createTestDatabase();
  // style-starter R150, glow-bee-journey R450, vip-sustainable-human R1,500.
  const thandi = await member("Thandi Nkosi-Mahlangu", "style-starter", "active", "2025-07-31", "2025-10-31");
  await paid(thandi.id, "2025-07-31", "2025-08-31");
  await paid(thandi.id, "2025-08-31", "2025-09-30");
  await paid(thandi.id, "2025-09-30", "2025-10-31");
  const pieter = await member("Pieter van Wyk", "glow-bee-journey", "due", "2025-08-08", "2025-09-08");
  await paid(pieter.id, "2025-08-08", "2025-09-08");
  await member("Lerato Mokoena", "vip-sustainable-human", "active", "2025-09-01", "2025-10-01");
  await member("Anna Smith", "vip-sustainable-human", "lapsed", "2025-06-20", "2025-08-20");
  await member("Zanele Dube", "style-starter", "cancelled", "2025-09-02", "2025-10-02");
  // Joined a year and more ago: outside the twelve months shown.
  await member("Old Timer", "style-starter", "lapsed", "2024-01-15", "2024-03-15");
});
afterAll(() => handle?.close());

describe("monthly recurring revenue", () => {
  it("counts active and due members, the due ones at risk with their sum; lapsed and cancelled not at all", async () => {
    expect(await recurringRevenue(handle.db)).toEqual({
      active: 2,
      mrrCents: 15_000 + 150_000 + 45_000,
      atRisk: 1,
      atRiskCents: 45_000,
    });
  });
});

describe("monthly recurring revenue of a card member", () => {
  it("counts what her subscription agreed, not the tier's price today", async () => {
    const [lerato] = await handle.db.select().from(members).where(eq(members.name, "Lerato Mokoena"));
    const orderId = randomUUID();
    await handle.db.insert(orders).values({
      id: orderId,
      reference: "HB-CARD1",
      orderType: "membership",
      itemName: "VIP Sustainable Human Membership",
      amountCents: 120_000,
      status: "paid",
      customerFirstName: "Lerato",
      customerLastName: "Mokoena",
      customerEmail: lerato!.email,
      customerPhone: "082 555 0101",
      customerAddress: "",
      provider: "payfast",
      idempotencyKey: randomUUID(),
    });
    await handle.db.insert(memberSubscriptions).values({
      orderId,
      memberId: lerato!.id,
      provider: "payfast",
      tierSlug: "vip-sustainable-human",
      amountCents: 120_000,
      status: "active",
    });
    expect((await recurringRevenue(handle.db)).mrrCents).toBe(15_000 + 120_000 + 45_000);
  });
});

describe("members by month", () => {
  it("counts joins by join day, renewals by the first day of each later paid month, lapses by the lapse day", async () => {
    const months = await membersByMonth(handle.db, "2025-09-12");
    expect(months).toHaveLength(12);
    expect(months[0]!.month).toBe("2024-10");
    expect(months.at(-1)!.month).toBe("2025-09");
    const pick = (m: string) => months.find((x) => x.month === m);
    expect(pick("2025-06")).toEqual({ month: "2025-06", joined: 1, renewed: 0, lapsed: 0 });
    expect(pick("2025-07")).toEqual({ month: "2025-07", joined: 1, renewed: 0, lapsed: 0 });
    // Anna's paid-until 20 Aug + the grace week: lapsed 27 Aug. Thandi renewed on 31 Aug.
    expect(pick("2025-08")).toEqual({ month: "2025-08", joined: 1, renewed: 1, lapsed: 1 });
    // Thandi's 30 Sep renewal counts in September; Lerato and Zanele joined.
    expect(pick("2025-09")).toEqual({ month: "2025-09", joined: 2, renewed: 1, lapsed: 0 });
    expect(months.filter((m) => m.month < "2025-06").every((m) => !m.joined && !m.renewed && !m.lapsed)).toBe(true);
  });

  it("reads a join at 23:30 on the last of the month in South African time", async () => {
    const months = await membersByMonth(handle.db, "2025-08-01", 2);
    expect(months).toEqual([
      { month: "2025-07", joined: 1, renewed: 0, lapsed: 0 },
      { month: "2025-08", joined: 1, renewed: 1, lapsed: 1 },
    ]);
  });
});
