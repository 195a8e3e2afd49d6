import { eq } from "drizzle-orm";
import type { AppConfig } from "~/config.server";
import type { Database } from "~/db/client.server";
import { appSettings, events, ticketOptions } from "~/db/schema";
import { eventDatesInSouthAfrica, eventTimesInSouthAfrica } from "~/lib/dates-in-words";
import type { Clock } from "~/lib/clock";
import { slugify } from "~/catalog/product-schema";

/** Set on a database's first start, whatever the provider: the demo is decided once and never again. */
export const DEMO_WORKSHOP_KEY = "seed.demo-workshop";
export const DEMO_WORKSHOP_TITLE = "Demo workshop: try a ticket purchase";
export const DEMO_WORKSHOP_ID = slugify(DEMO_WORKSHOP_TITLE);

const SOUTH_AFRICA_OFFSET_MS = 2 * 60 * 60 * 1000;

/** 10:00 South African time on the same day of the next month (the month's last day if it is shorter). */
export function demoWorkshopStart(firstStart: Date): Date {
  const local = new Date(firstStart.getTime() + SOUTH_AFRICA_OFFSET_MS);
  const year = local.getUTCFullYear();
  const month = local.getUTCMonth() + 1;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return new Date(Date.UTC(year, month, Math.min(local.getUTCDate(), lastDay), 10) - SOUTH_AFRICA_OFFSET_MS);
}

/**
 * A shop running on the payment simulator (what a newcomer's `npm start` gives) gets one upcoming
 * demo workshop, so a ticket purchase can be tried end to end. Decided once per database on its first
 * start: a shop with card keys never gets it, even if it later switches to the simulator, and a demo
 * the owner deleted does not come back (decision 081).
 */
export async function seedDemoWorkshop(
  db: Database,
  config: Pick<AppConfig, "payment">,
  clock: Clock,
): Promise<"added" | "skipped"> {
  return db.transaction(async (tx) => {
    const [done] = await tx
      .select({ key: appSettings.key })
      .from(appSettings)
      .where(eq(appSettings.key, DEMO_WORKSHOP_KEY))
      .for("update");
    if (done) return "skipped" as const;
    const simulator = config.payment.provider === "simulator";
    const inserted = await tx
      .insert(appSettings)
      .values({ key: DEMO_WORKSHOP_KEY, value: simulator ? "added" : "not for a shop with card payments" })
      .onConflictDoNothing()
      .returning();
    // Another instance starting at the same moment decided first.
    if (!inserted.length || !simulator) return "skipped" as const;
    const startsAt = demoWorkshopStart(clock.now());
    const endsAt = new Date(startsAt.getTime() + 3 * 60 * 60 * 1000);
    const [event] = await tx
      .insert(events)
      .values({
        id: DEMO_WORKSHOP_ID,
        title: DEMO_WORKSHOP_TITLE,
        dates: eventDatesInSouthAfrica(startsAt, endsAt),
        timeText: eventTimesInSouthAfrica(startsAt, endsAt),
        startsAt,
        endsAt,
        focus: "A practice run of buying a ticket with the payment simulator",
        priceText: "R100",
        description:
          "This is a demo event, added because the shop takes payments through the built-in simulator: buy a ticket " +
          "to try checkout from start to finish. No card is charged. Delete it in the admin under Events when you no longer need it.",
        includes: ["A seat at a pretend workshop", "A practice checkout with no real payment"],
        location: "Honey Bee Studio, Johannesburg",
        participants: "Limited to 8 participants",
        images: ["/images/workshop/tablecloth-skirt-1.svg"],
        imageAlts: ["A tablecloth being turned into a wrap-around skirt"],
        ticketsOnSale: true,
        demo: true,
        sortOrder: 100,
      })
      .onConflictDoNothing()
      .returning();
    if (!event) return "skipped" as const;
    await tx.insert(ticketOptions).values({
      eventId: event.id,
      type: "Demo Ticket",
      priceCents: 10_000,
      description: "A practice ticket: the simulator takes no money",
      capacity: 8,
      sortOrder: 0,
    });
    return "added" as const;
  });
}
