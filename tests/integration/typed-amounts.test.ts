import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/db/client.server";
import { adminAuditLog, catalogItems, events, membershipTiers, ticketOptions } from "~/db/schema";
import * as eventEdit from "~/routes/admin/event-edit";
import * as tiersRoute from "~/routes/admin/memberships";
import * as productEdit from "~/routes/admin/product-edit";
import { countRows } from "../support/generated";
import { createTestDatabase } from "../support/test-db";
import { call, multipart, post } from "../support/admin-content";
import { signedInOwner } from "../support/owner";

/*
 * Issue 36, "Money is read the way people type it": the owner's price fields read 650,00 as R 650.00,
 * refuse 6,5,0 beside the field and change nothing, and a tenfold change waits for a second save
 * that confirms exactly the amount asked about (decision 103).
 */
let handle: DatabaseHandle;
let cookie: string;

beforeAll(async () => {
  handle = await createTestDatabase();
  cookie = await signedInOwner(handle);
});
afterAll(() => handle?.close());

const dress = (price: string, extra: [string, string][] = []): [string, string][] => [
  ["intent", "save"],
  ["name", "Long-Named Reclaimed Shweshwe Wrap Dress With Pockets"],
  ["kind", "product"],
  ["price", price],
  ["priceText", ""],
  ["description", "A wrap dress cut from reclaimed shweshwe."],
  ["stock", "3"],
  ["visible", "on"],
  ["sortOrder", "0"],
  ["photoSrc", "/images/products/dashiki-dress-1.svg"],
  ["photoAlt", "The wrap dress on a Honey"],
  ...extra,
];

let productId = 0;
const product = async () => (await handle.db.select().from(catalogItems).where(eq(catalogItems.id, productId)))[0]!;
const saveProduct = (price: string, extra: [string, string][] = []) =>
  call(handle, productEdit.action, multipart(`/admin/products/${productId}`, dress(price, extra), cookie), {
    id: String(productId),
  });
const errorsOf = (answer: { body: Record<string, unknown> }) => answer.body.fieldErrors as Record<string, string>;
const audits = () => countRows(handle, adminAuditLog);

describe("the product price", () => {
  it("650,00 is saved as R 650.00, not R 65,000.00", async () => {
    const added = await call(handle, productEdit.action, multipart("/admin/products/new", dress("650,00"), cookie));
    expect(added.status).toBe(302);
    productId = Number(/\/admin\/products\/(\d+)$/.exec(added.headers.get("location") ?? "")![1]);
    expect(await product()).toMatchObject({ priceCents: 65000, priceText: "R 650.00" });
  });

  it.each([
    ["R 650,50", 65050],
    ["650.50", 65050],
    ["1 500,50", 150050],
    ["1,500.50", 150050],
    ["1.500,50", 150050],
    ["1,500", 150000],
    ["R\u00a01\u202f500", 150000],
  ])("%j is saved as %i cents", async (typed, cents) => {
    expect((await saveProduct(typed)).status).toBe(302);
    expect((await product()).priceCents).toBe(cents);
  });

  it.each([
    ["6,5,0", "Price has a separator in the wrong place"],
    ["1.5.0", "Price has a separator in the wrong place"],
    ["-5", "Price can't be negative."],
    ["1e3", "Price must be an amount in rand"],
    ["650,505,5", "Price has a separator in the wrong place"],
    ["1 500,505", "Price has more than two decimals"],
    ["1.500", "Price 1.500 is unclear"],
  ])("%j is refused beside the field and nothing changes", async (typed, message) => {
    const before = { row: await product(), audits: await audits() };
    const answer = await saveProduct(typed);
    expect(answer.status).toBe(400);
    expect(errorsOf(answer).price).toContain(message);
    expect((answer.body.values as Record<string, string>).price).toBe(typed);
    expect({ row: await product(), audits: await audits() }).toEqual(before);
  });

  it("a tenfold change asks first, changes nothing, and saves when saved again with the confirmation", async () => {
    expect((await saveProduct("650")).status).toBe(302);
    const before = { row: await product(), audits: await audits() };
    const asked = await saveProduct("6500");
    expect(asked.status).toBe(400);
    expect(errorsOf(asked).price).toBe("R 6,500.00 is 10 times the current R 650.00. Save again to confirm.");
    expect(asked.body.confirm).toEqual({ price: 650000 });
    expect({ row: await product(), audits: await audits() }).toEqual(before);

    // A confirmation names its amount: it does not carry over to another one.
    const other = await saveProduct("65000", [["confirmPrice", "650000"]]);
    expect(errorsOf(other).price).toBe("R 65,000.00 is 100 times the current R 650.00. Save again to confirm.");
    expect((await product()).priceCents).toBe(65000);

    expect((await saveProduct("6 500,00", [["confirmPrice", "650000"]])).status).toBe(302);
    expect(await product()).toMatchObject({ priceCents: 650000, priceText: "R 6,500.00" });
  });

  it("down by ten times asks too; less than ten times does not", async () => {
    const down = await saveProduct("650");
    expect(errorsOf(down).price).toBe("R 650.00 is a tenth of the current R 6,500.00. Save again to confirm.");
    expect((await saveProduct("651")).status).toBe(302);
    expect((await product()).priceCents).toBe(65100);
  });
});

describe("a ticket option's price", () => {
  const workshop = (price: string, extra: Record<string, string> = {}): [string, string][] => [
    ["title", "Indigo Dye Workshop"],
    ["starts", "2025-10-18T10:00"],
    ["ends", "2025-10-18T13:00"],
    ["location", "Honey Bee Studio, Johannesburg"],
    ["focus", "Natural dyes"],
    ["description", "Dye a pre-loved shirt with indigo."],
    ["includes", "Apron"],
    ["photoSrc", "/images/events/sip-style-1.svg"],
    ["photoAlt", "Women at a styling afternoon"],
    ...Object.entries({
      "option.0.type": "Workshop Seat",
      "option.0.price": price,
      "option.0.capacity": "",
      "option.0.from": "",
      "option.0.until": "",
      ...extra,
    }),
  ];
  const option = async () =>
    (
      await handle.db
        .select()
        .from(ticketOptions)
        .where(eq(ticketOptions.eventId, "indigo-dye-workshop"))
        .orderBy(asc(ticketOptions.id))
    )[0]!;
  const edit = async (price: string, extra: Record<string, string> = {}) =>
    call(
      handle,
      eventEdit.action,
      multipart(
        "/admin/events/indigo-dye-workshop",
        workshop(price, { "option.0.id": String((await option()).id), ...extra }),
        cookie,
      ),
      { id: "indigo-dye-workshop" },
    );

  it("reads 350,00 as R 350.00 and refuses 6,5,0 beside the option's field", async () => {
    expect(
      (await call(handle, eventEdit.action, multipart("/admin/events/new", workshop("350,00"), cookie))).status,
    ).toBe(302);
    expect((await option()).priceCents).toBe(35000);
    const refused = await edit("6,5,0");
    expect(refused.status).toBe(400);
    expect(errorsOf(refused)["option.0.price"]).toContain("Price has a separator in the wrong place");
    expect((await option()).priceCents).toBe(35000);
  });

  it("a tenfold change asks on its row and saves with the confirmation", async () => {
    const before = await handle.db.select().from(events).where(eq(events.id, "indigo-dye-workshop"));
    const asked = await edit("3500");
    expect(asked.status).toBe(400);
    expect(errorsOf(asked)["option.0.price"]).toBe(
      "R 3,500.00 is 10 times the current R 350.00. Save again to confirm.",
    );
    expect(asked.body.confirm).toEqual({ "option.0.price": 350000 });
    expect((await option()).priceCents).toBe(35000);
    expect(await handle.db.select().from(events).where(eq(events.id, "indigo-dye-workshop"))).toEqual(before);
    expect((await edit("3500", { "option.0.confirmPrice": "350000" })).status).toBe(302);
    expect((await option()).priceCents).toBe(350000);
  });
});

describe("a membership tier's price", () => {
  const SLUG = "style-starter";
  const tier = async () => (await handle.db.select().from(membershipTiers).where(eq(membershipTiers.slug, SLUG)))[0]!;
  const save = (price: string, extra: Record<string, string> = {}) =>
    call(
      handle,
      tiersRoute.action,
      post(
        "/admin/memberships",
        {
          slug: SLUG,
          name: "The Style Starter",
          price,
          priceText: "",
          description: "Begin your journey.",
          benefits: "Monthly posts",
          sortOrder: "1",
          visible: "on",
          percentOffEvents: "0",
          freeTicketsPerMonth: "0",
          percentOffProducts: "0",
          ...extra,
        },
        cookie,
      ),
    );

  it("reads R 175,50 as R 175.50, refuses 1.5.0, and asks before a tenfold change", async () => {
    expect((await save("R 175,50")).status).toBe(302);
    expect((await tier()).priceCents).toBe(17550);
    const refused = await save("1.5.0");
    expect(refused.status).toBe(400);
    expect(errorsOf(refused).price).toContain("Price has a separator in the wrong place");
    const asked = await save("17 550");
    expect(asked.status).toBe(400);
    expect(errorsOf(asked).price).toBe("R 17,550.00 is 100 times the current R 175.50. Save again to confirm.");
    expect(asked.body.confirm).toEqual({ price: 1755000 });
    expect((await tier()).priceCents).toBe(17550);
    expect((await save("17 550", { confirmPrice: "1755000" })).status).toBe(302);
    expect(await tier()).toMatchObject({ priceCents: 1755000, priceText: "R17550" });
  });
});
