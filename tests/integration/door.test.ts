import fs from "node:fs";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/db/client.server";
import { orders, tickets } from "~/db/schema";
import { runSimulatorIntent } from "~/orders/simulator-actions.server";
import { checkInByCode } from "~/tickets/check-in.server";
import { doorCounts, doorTicketList } from "~/tickets/door-lists.server";
import { answerFromList, doorMessage, looksLikeTicketCode, matchDoorTickets } from "~/tickets/door";
import { newShortCode, voidOrderTickets } from "~/tickets/issue.server";
import { SHORT_CODE_ALPHABET, formatShortCode, parseShortCode } from "~/tickets/short-code";
import { createTestDatabase, testContext } from "../support/test-db";
import { checkout, orderIdFrom } from "../support/checkout";

const WORKSHOP = "Transform Tablecloth into Wrap Around Skirt";
const NOW = new Date("2025-09-10T10:00:00+02:00");
const DB_NAME = process.env.TEST_DATABASE_URL ? "PostgreSQL" : "PGlite";

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(async () => {
  await handle?.close();
});

async function buySeat(firstName: string, email: string) {
  const id = orderIdFrom(
    await checkout(handle, "workshop", WORKSHOP, {
      fields: { firstName, lastName: "Dube", email, phone: "+27 82 555 0101", address: "Melville" },
    }),
  );
  const [order] = await handle.db.select().from(orders).where(eq(orders.id, id));
  await runSimulatorIntent(testContext(handle), order!, "pay");
  const [ticket] = await handle.db.select().from(tickets).where(eq(tickets.orderId, id));
  return { orderId: id, reference: order!.reference, ticket: ticket! };
}

describe("the door code", () => {
  it("is eight characters from an alphabet without 0/O and 1/I/L, printed as two groups of four", () => {
    expect(SHORT_CODE_ALPHABET).not.toMatch(/[01OIL]/);
    expect(SHORT_CODE_ALPHABET).toHaveLength(31);
    const seen = new Set<string>();
    for (let i = 0; i < 2000; i++) {
      const code = newShortCode();
      expect(code).toMatch(/^[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{8}$/);
      for (const c of code) seen.add(c);
    }
    // Every character of the alphabet is drawn.
    expect(seen.size).toBe(31);
    expect(formatShortCode("ABCD2345")).toBe("ABCD-2345");
  });

  it("is read in any case, with or without the separator; anything else is not a door code", () => {
    for (const typed of ["abcd2345", "ABCD-2345", "abcd 2345", " Abcd-2345 "])
      expect(parseShortCode(typed)).toBe("ABCD2345");
    for (const typed of ["ABCD234", "ABCD23450", "ABCD-1345", "OBCD2345", "Lerato"])
      expect(parseShortCode(typed)).toBeNull();
    expect(looksLikeTicketCode("abcd-2345")).toBe(true);
    expect(looksLikeTicketCode("Le")).toBe(false);
  });
});

describe("every refusal says why, in the words the door reads out", () => {
  it.each([
    [{ outcome: "refunded", voidedAt: "2026-11-26T08:00:00Z" }, "Refunded on 26 Nov — do not admit"],
    // 23:30 UTC on 25 November is already 26 November in South Africa.
    [{ outcome: "refunded", voidedAt: "2026-11-25T23:30:00Z" }, "Refunded on 26 Nov — do not admit"],
    [
      { outcome: "already", checkedInAt: "2025-09-24T16:04:00Z", byThisDevice: true },
      "Already checked in at 18:04 by this phone",
    ],
    [
      { outcome: "already", checkedInAt: "2025-09-24T16:04:00Z", byThisDevice: false },
      "Already checked in at 18:04 by another phone",
    ],
    [{ outcome: "other-event", eventTitle: "Sip & Style" }, "Ticket for Sip & Style, not this event"],
    [{ outcome: "invalid" }, "Not a ticket of this shop"],
    [
      { outcome: "admitted", holderName: "Lerato Dube", ticketType: "Monthly Workshop" },
      "Admitted: Lerato Dube, Monthly Workshop",
    ],
  ] as const)("%o reads %s", (result, words) => {
    expect(doorMessage(result)).toBe(words);
  });
});

describe(`admitting at the door by door code, with reasons (${DB_NAME})`, () => {
  it("a door code typed in lower case admits; the same again says by this phone, on another by another phone", async () => {
    const { ticket } = await buySeat("Zanele", "zanele@example.com");
    const typed = formatShortCode(ticket.shortCode).toLowerCase();
    const at = new Date("2025-10-04T16:04:00Z");
    expect(
      await checkInByCode(handle.db, { code: typed, deviceId: "door-a", now: at, eventId: "tablecloth-workshop" }),
    ).toMatchObject({ outcome: "admitted", holderName: "Zanele Dube" });
    const again = await checkInByCode(handle.db, {
      code: ticket.shortCode,
      deviceId: "door-a",
      now: at,
      eventId: "tablecloth-workshop",
    });
    expect(doorMessage(again)).toBe("Already checked in at 18:04 by this phone");
    const swapped = ticket.code.replace(/[a-z]/, (c) => c.toUpperCase());
    expect(swapped).not.toBe(ticket.code);
    const other = await checkInByCode(handle.db, {
      code: swapped,
      deviceId: "door-b",
      now: at,
      eventId: "tablecloth-workshop",
    });
    expect(doorMessage(other)).toBe("Already checked in at 18:04 by another phone");
  });

  it("names the event of a ticket for another event, and refuses a refunded one with its date, changing nothing", async () => {
    const { ticket, orderId } = await buySeat("Palesa", "palesa@example.com");
    const elsewhere = await checkInByCode(handle.db, {
      code: ticket.shortCode,
      deviceId: "door-a",
      now: NOW,
      eventId: "sip-style",
    });
    expect(doorMessage(elsewhere)).toBe(`Ticket for ${WORKSHOP}, not this event`);
    await handle.db.transaction((tx) => voidOrderTickets(tx, orderId, new Date("2025-09-26T09:00:00Z")));
    const refused = await checkInByCode(handle.db, {
      code: ticket.code,
      deviceId: "door-a",
      now: NOW,
      eventId: "tablecloth-workshop",
    });
    expect(doorMessage(refused)).toBe("Refunded on 26 Sep — do not admit");
    const [after] = await handle.db.select().from(tickets).where(eq(tickets.id, ticket.id));
    expect(after!.checkedInAt).toBeNull();
    expect(
      doorMessage(
        await checkInByCode(handle.db, {
          code: "ZZZZ-ZZZZ",
          deviceId: "door-a",
          now: NOW,
          eventId: "tablecloth-workshop",
        }),
      ),
    ).toBe("Not a ticket of this shop");
  });

  it(
    "the offline list carries door codes, refund state, email and reference; from it the door answers as online and " +
      "searches from two letters",
    async () => {
      const { ticket, reference } = await buySeat("Nomvula", "nomvula@example.com");
      const { tickets: list, others } = await doorTicketList(handle.db, "tablecloth-workshop", NOW);
      const entry = list.find((t) => t.code === ticket.code)!;
      expect(entry).toMatchObject({
        shortCode: ticket.shortCode,
        name: "Nomvula Dube",
        email: "nomvula@example.com",
        reference,
        voidedAt: null,
      });
      expect(list.find((t) => t.name === "Palesa Dube")!.voidedAt).toBe("2025-09-26T09:00:00.000Z");
      expect(matchDoorTickets(list, "No").map((t) => t.name)).toEqual(["Nomvula Dube"]);
      expect(matchDoorTickets(list, "N")).toEqual([]);
      expect(matchDoorTickets(list, reference.toLowerCase()).map((t) => t.code)).toEqual([ticket.code]);
      expect(matchDoorTickets(list, "nomvula@").map((t) => t.code)).toEqual([ticket.code]);

      expect(
        answerFromList(list, others, formatShortCode(ticket.shortCode).toLowerCase(), "door-x").result,
      ).toMatchObject({ outcome: "admitted", holderName: "Nomvula Dube" });
      const palesa = list.find((t) => t.name === "Palesa Dube")!;
      expect(doorMessage(answerFromList(list, others, palesa.code, "door-x").result)).toBe(
        "Refunded on 26 Sep — do not admit",
      );
      const zanele = list.find((t) => t.name === "Zanele Dube")!;
      expect(doorMessage(answerFromList(list, others, zanele.code, "door-a").result)).toBe(
        "Already checked in at 18:04 by this phone",
      );
      expect(doorMessage(answerFromList(list, others, zanele.code, "door-b").result)).toBe(
        "Already checked in at 18:04 by another phone",
      );
      expect(
        doorMessage(
          answerFromList(
            list,
            [{ code: "x".repeat(24), shortCode: "ABCD2345", eventTitle: "Sip & Style" }],
            "abcd-2345",
            "d",
          ).result,
        ),
      ).toBe("Ticket for Sip & Style, not this event");
      expect(doorMessage(answerFromList(list, others, "ABCD-2346", "d").result)).toBe("Not a ticket of this shop");
      // The long code typed with a capital wrong still finds its ticket in the list.
      expect(answerFromList(list, others, ticket.code.toUpperCase(), "d").ticket?.code).toBe(ticket.code);

      // "x of y checked in" counts the session's tickets that were not refunded.
      const counts = await doorCounts(handle.db, "tablecloth-workshop", ticket.sessionStartsAt!.toISOString());
      expect(counts).toEqual({ checkedIn: 1, total: 2 });
    },
  );
});

describe(`the migration gives existing tickets door codes and refund times (${DB_NAME})`, () => {
  it("backfills a code per ticket, unique within its event, and the refund time from the order's history", async () => {
    const refunded = await buySeat("Ayanda", "ayanda@example.com");
    await handle.db.transaction((tx) => voidOrderTickets(tx, refunded.orderId, new Date("2025-09-20T10:00:00Z")));
    const before = await handle.db.select({ id: tickets.id }).from(tickets);
    // Back to the schema before this migration, with the data in it, then the migration as written.
    const undo = [
      'DROP INDEX "tickets_event_short_code_idx"',
      'ALTER TABLE "tickets" DROP COLUMN "short_code"',
      'ALTER TABLE "tickets" DROP COLUMN "voided_at"',
      'ALTER TABLE "check_ins" DROP COLUMN "device_clock_skew_ms"',
    ];
    const file = fs.readdirSync("drizzle").find((name) => name.endsWith("_door.sql"))!;
    const migration = fs.readFileSync(path.join("drizzle", file), "utf8").split("--> statement-breakpoint");
    // One transaction, as the migrator runs it: on PostgreSQL its temporary function lives in one session.
    await handle.db.transaction(async (tx) => {
      for (const statement of [...undo, ...migration]) await tx.execute(sql.raw(statement));
    });
    const after = await handle.db.select().from(tickets);
    expect(after).toHaveLength(before.length);
    for (const t of after) expect(t.shortCode).toMatch(/^[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{8}$/);
    expect(new Set(after.map((t) => `${t.eventId}|${t.shortCode}`)).size).toBe(after.length);
    const ayanda = after.find((t) => t.id === refunded.ticket.id)!;
    expect(ayanda.voidedAt?.toISOString()).toBe("2025-09-20T10:00:00.000Z");
    expect(after.filter((t) => !t.voided).every((t) => t.voidedAt === null)).toBe(true);
  });
});
