import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/db/client.server";
import { events, ticketOptions } from "~/db/schema";
import { isOnSale, ticketAvailability } from "~/events/ticket-availability";
import { createTestDatabase } from "../support/test-db";

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(async () => {
  await handle.close();
});

async function sipStyle() {
  const [event] = await handle.db.select().from(events).where(eq(events.id, "sip-style"));
  const options = await handle.db.select().from(ticketOptions).where(eq(ticketOptions.eventId, "sip-style"));
  const byType = (type: string) => options.find((o) => o.type === type)!;
  return { event: event!, byType };
}

describe("ticket availability (seeded sip-style)", () => {
  it("before 15 September: Normal Price is not yet on sale, Early Bird is", async () => {
    const { event, byType } = await sipStyle();
    const now = new Date("2025-09-10T10:00:00+02:00");
    expect(ticketAvailability(byType("Normal Price"), event, now)).toMatchObject({
      status: "not-yet",
      label: "Available from 15 September",
    });
    expect(isOnSale(byType("Early Bird"), event, now)).toBe(true);
    expect(isOnSale(byType("Come With a Friend"), event, now)).toBe(true);
  });

  it("from 15 September (SAST midnight): Normal Price on sale, Early Bird sales closed", async () => {
    const { event, byType } = await sipStyle();
    const now = new Date("2025-09-15T00:00:00+02:00");
    expect(isOnSale(byType("Normal Price"), event, now)).toBe(true);
    expect(ticketAvailability(byType("Early Bird"), event, now)).toEqual({ status: "closed", label: "Sales closed" });
  });

  it("after the event starts nothing is sold", async () => {
    const { event, byType } = await sipStyle();
    const now = new Date(event.startsAt!.getTime() + 1000);
    for (const type of ["Early Bird", "Come With a Friend", "Normal Price"]) {
      expect(ticketAvailability(byType(type), event, now)).toEqual({
        status: "event-over",
        label: "This event has taken place",
      });
    }
  });

  it("heritage-radiance is coming soon: no ticket options to buy", async () => {
    const options = await handle.db.select().from(ticketOptions).where(eq(ticketOptions.eventId, "heritage-radiance"));
    expect(options).toHaveLength(0);
  });
});
