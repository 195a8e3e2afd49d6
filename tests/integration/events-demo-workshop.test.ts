import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/db/client.server";
import { appSettings, events, ticketOptions } from "~/db/schema";
import {
  DEMO_WORKSHOP_ID,
  DEMO_WORKSHOP_KEY,
  demoWorkshopStart,
  seedDemoWorkshop,
} from "~/events/demo-workshop.server";
import { listEventsByPhase } from "~/events/events.server";
import { fixedClock } from "~/lib/clock";
import { findSellable } from "~/orders/sellable.server";
import { createRuntime } from "../../server/runtime";
import { createTestDatabase, testConfig } from "../support/test-db";

const simulator = testConfig();
const yoco = testConfig({ payment: { ...simulator.payment, provider: "yoco" } });
const FIRST_START = fixedClock("2025-09-10T10:00:00+02:00");

let handle: DatabaseHandle | undefined;
afterEach(async () => {
  await handle?.close();
  handle = undefined;
});

const demoRows = async (db: DatabaseHandle["db"]) => db.select().from(events).where(eq(events.demo, true));

describe("the demo workshop", () => {
  it("a shop on the payment simulator gets one, dated a month after its first start, 10:00-13:00, once", async () => {
    handle = await createTestDatabase();
    expect(await seedDemoWorkshop(handle.db, simulator, FIRST_START)).toBe("added");
    const [demo, ...more] = await demoRows(handle.db);
    expect(more).toEqual([]);
    expect(demo).toMatchObject({
      id: DEMO_WORKSHOP_ID,
      title: "Demo workshop: try a ticket purchase",
      dates: "10 October 2025",
      timeText: "10:00 - 13:00",
      startsAt: new Date("2025-10-10T08:00:00Z"),
      endsAt: new Date("2025-10-10T11:00:00Z"),
      demo: true,
      ticketsOnSale: true,
    });
    expect(
      await handle.db.select().from(ticketOptions).where(eq(ticketOptions.eventId, DEMO_WORKSHOP_ID)),
    ).toMatchObject([{ type: "Demo Ticket", priceCents: 10_000, capacity: 8 }]);
    // Bought end to end like any ticket, and listed among the upcoming events.
    expect(
      await findSellable(handle.db, "ticket", "Demo workshop: try a ticket purchase - Demo Ticket", FIRST_START.now()),
    ).toMatchObject({
      ok: true,
      item: { amountCents: 10_000, stock: { limit: 8 } },
    });
    expect((await listEventsByPhase(handle.db, FIRST_START.now())).upcoming.map((e) => e.id)).toEqual([
      "sip-style",
      DEMO_WORKSHOP_ID,
      "tablecloth-workshop",
      "heritage-radiance",
    ]);

    // A later start (a month on) adds nothing; nor does one after the owner deleted the demo.
    expect(await seedDemoWorkshop(handle.db, simulator, fixedClock("2025-11-10T10:00:00+02:00"))).toBe("skipped");
    await handle.db.delete(events).where(eq(events.id, DEMO_WORKSHOP_ID));
    expect(await seedDemoWorkshop(handle.db, simulator, FIRST_START)).toBe("skipped");
    expect(await demoRows(handle.db)).toEqual([]);
  });

  it("a shop with card keys never gets it, even after switching to the simulator", async () => {
    handle = await createTestDatabase();
    expect(await seedDemoWorkshop(handle.db, yoco, FIRST_START)).toBe("skipped");
    expect(await demoRows(handle.db)).toEqual([]);
    const [marker] = await handle.db.select().from(appSettings).where(eq(appSettings.key, DEMO_WORKSHOP_KEY));
    expect(marker).toBeDefined();
    expect(await seedDemoWorkshop(handle.db, simulator, FIRST_START)).toBe("skipped");
    expect(await demoRows(handle.db)).toEqual([]);
  });

  it("is dated on the same day of the next month, or that month's last day", () => {
    expect(demoWorkshopStart(new Date("2025-09-10T10:00:00+02:00")).toISOString()).toBe("2025-10-10T08:00:00.000Z");
    expect(demoWorkshopStart(new Date("2026-01-31T23:30:00+02:00")).toISOString()).toBe("2026-02-28T08:00:00.000Z");
    expect(demoWorkshopStart(new Date("2025-12-15T01:00:00+02:00")).toISOString()).toBe("2026-01-15T08:00:00.000Z");
    // 23:30 UTC on 31 December is already 1 January in South Africa.
    expect(demoWorkshopStart(new Date("2025-12-31T23:30:00Z")).toISOString()).toBe("2026-02-01T08:00:00.000Z");
  });
});

describe("the server's start", () => {
  it.each([
    ["the simulator (no card keys)", {}, 1],
    ["Yoco card keys", { YOCO_SECRET_KEY: "sk_test_demo", YOCO_WEBHOOK_SECRET: "whsec_dGVzdA==" }, 0],
  ] as const)(
    "with %s (%j) seeds %i demo workshops on a fresh database",
    async (_name, keys, expected) => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "honey-demo-"));
      const env = {
        NODE_ENV: "test",
        DATA_DIR: dataDir,
        ADMIN_PASSWORD: "a-test-admin-password",
        APP_NOW: "2025-09-10T10:00:00+02:00",
        ...keys,
      };
      try {
        const runtime = await createRuntime(env, () => {});
        try {
          expect(await demoRows(runtime.database.db)).toHaveLength(expected);
        } finally {
          await runtime.database.close();
        }
      } finally {
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    },
    120_000,
  );
});
