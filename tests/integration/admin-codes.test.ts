import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/db/client.server";
import { adminAuditLog, catalogItems, discountCodes, orders } from "~/db/schema";
import * as codeEdit from "~/routes/admin/code-edit";
import * as codeList from "~/routes/admin/codes";
import { countRows } from "../support/generated";
import { createTestDatabase, testContext } from "../support/test-db";
import { signedInOwner } from "../support/owner";
import { routeAnswer } from "../support/route-answer";

/** The owner's discount codes, through the real loaders and actions of /admin/codes. */
const BASE = "http://localhost:3000";
const counts = () => Promise.all([discountCodes, adminAuditLog, orders].map((t) => countRows(handle, t)));
let handle: DatabaseHandle;
let cookie: string;

beforeAll(async () => {
  handle = await createTestDatabase({ seed: true });
  cookie = await signedInOwner(handle);
});
afterAll(() => handle?.close());

const call = (fn: (args: never) => unknown, request: Request, params: Record<string, string> = {}) =>
  routeAnswer(() => fn({ request, params, context: testContext(handle) } as never));

function post(path: string, fields: Record<string, string | string[]>) {
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(fields)) for (const one of [v].flat()) body.append(k, one);
  return new Request(`${BASE}${path}`, {
    method: "POST",
    body,
    headers: { Origin: BASE, Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
  });
}
const get = (path: string) => new Request(`${BASE}${path}`, { headers: { Cookie: cookie } });

const launch = {
  code: "launch20",
  kind: "percent",
  percent: "20",
  fixed: "",
  scope: "products",
  validFrom: "2025-09-01",
  validUntil: "30/09/2025",
  totalUses: "5",
  usesPerEmail: "1",
  minimumSpend: "R 100,00",
  active: "on",
};

const codeRow = async (code: string) =>
  (await handle.db.select().from(discountCodes).where(eq(discountCodes.code, code)))[0];

describe("adding a code", () => {
  it("stores it upper-case with South African dates and cents, logs it, and lists it in words", async () => {
    const saved = await call(codeEdit.action, post("/admin/codes/new", launch));
    expect(saved.status).toBe(302);
    expect(saved.location).toBe("/admin/codes");
    expect(await codeRow("LAUNCH20")).toMatchObject({
      kind: "percent",
      amount: 20,
      scope: "products",
      items: [],
      validFrom: "2025-09-01",
      validUntil: "2025-09-30",
      totalUses: 5,
      usesPerEmail: 1,
      minimumSpendCents: 10000,
      active: true,
    });
    const log = await handle.db.select().from(adminAuditLog).where(eq(adminAuditLog.action, "discount_code.create"));
    expect(log[0]!.summary).toBe("Added discount code LAUNCH20: 20% off a spend of R 100.00 or more");

    const list = await call(codeList.loader, get("/admin/codes"));
    expect(list.body.codes).toEqual([
      expect.objectContaining({
        code: "LAUNCH20",
        gives: "20% off a spend of R 100.00 or more",
        appliesTo: "Products",
        valid: "1 September 2025 to 30 September 2025",
        uses: "0 of 5",
        perEmail: 1,
        revenueCents: 0,
        active: true,
      }),
    ]);
  });

  it("takes a fixed rand amount as South Africans type it, and chosen items by name", async () => {
    const [item] = await handle.db.select().from(catalogItems).limit(1);
    const saved = await call(
      codeEdit.action,
      post("/admin/codes/new", {
        ...launch,
        code: "Collab50",
        kind: "fixed",
        percent: "",
        fixed: "R 50,00",
        scope: "items",
        items: [`catalog:${item!.id}`],
        validFrom: "",
        validUntil: "",
        totalUses: "",
        usesPerEmail: "",
        minimumSpend: "",
      }),
    );
    expect(saved.status).toBe(302);
    expect(await codeRow("COLLAB50")).toMatchObject({
      kind: "fixed",
      amount: 5000,
      scope: "items",
      items: [`catalog:${item!.id}`],
      validFrom: null,
      validUntil: null,
      totalUses: null,
      minimumSpendCents: 0,
    });
    const list = await call(codeList.loader, get("/admin/codes"));
    expect(list.body.codes[0]).toMatchObject({
      code: "COLLAB50",
      gives: "R 50.00 off",
      appliesTo: `Chosen items: ${item!.name}`,
      valid: "Always",
      uses: "0 (no limit)",
    });
  });
});

describe("refusing bad input", () => {
  const cases: [string, Record<string, string | string[]>, string, string][] = [
    ["a code with a space", { code: "LAUNCH 20" }, "code", "Code may use only letters and digits, e.g. LAUNCH20."],
    ["an empty code", { code: "" }, "code", "Code is required, e.g. LAUNCH20."],
    [
      "the same code in other letters",
      { code: "Launch20" },
      "code",
      "The code LAUNCH20 is already in use: choose another.",
    ],
    ["a percent over 100", { percent: "120" }, "percent", "Percent off must be a whole number from 1 to 100."],
    ["no rand amount", { kind: "fixed", fixed: "" }, "fixed", "Rand off is required: an amount, e.g. 50 or 50,00."],
    ["a negative rand amount", { kind: "fixed", fixed: "-5" }, "fixed", "Rand off can't be negative."],
    ["no chosen items", { scope: "items" }, "items", "Choose at least one item the code applies to."],
    ["an item not in the list", { scope: "items", items: ["orders:1"] }, "items", "Choose items from the list."],
    [
      "a day that does not exist",
      { validFrom: "31/02/2026" },
      "validFrom",
      "Valid from must be a date, e.g. 2026-12-01.",
    ],
    [
      "an end before the start",
      { validUntil: "2025-08-01" },
      "validUntil",
      "Valid until must be on or after Valid from.",
    ],
    [
      "no uses at all",
      { totalUses: "0" },
      "totalUses",
      "Total uses must be a whole number from 1 to 1000000, or empty for no limit.",
    ],
    ["an unknown scope", { scope: "orders" }, "scope", "Choose what the code applies to."],
  ];
  it.each(cases)("%s gets a field message and saves nothing", async (_name, change, field, message) => {
    const before = await counts();
    const answer = await call(codeEdit.action, post("/admin/codes/new", { ...launch, ...change }));
    expect(answer.status).toBe(400);
    expect(answer.body.fieldErrors[field]).toBe(message);
    expect(await counts()).toEqual(before);
  });
});

describe("editing a code", () => {
  it("saves the change, logs what changed, and an unknown id is a 404", async () => {
    const row = await codeRow("LAUNCH20");
    const form = await call(codeEdit.loader, get(`/admin/codes/${row!.id}`), { id: String(row!.id) });
    expect(form.body.values).toMatchObject({ code: "LAUNCH20", percent: "20", minimumSpend: "100.00", active: true });
    const saved = await call(
      codeEdit.action,
      post(`/admin/codes/${row!.id}`, { ...launch, code: "LAUNCH20", totalUses: "1", active: "" }),
      { id: String(row!.id) },
    );
    expect(saved.status).toBe(302);
    expect(await codeRow("LAUNCH20")).toMatchObject({ totalUses: 1, active: false });
    const [log] = await handle.db.select().from(adminAuditLog).where(eq(adminAuditLog.action, "discount_code.update"));
    expect(log!.summary).toBe("Changed totalUses, active of code LAUNCH20");
    expect((await call(codeEdit.loader, get("/admin/codes/99999"), { id: "99999" })).status).toBe(404);
    expect((await call(codeEdit.loader, get("/admin/codes/abc"), { id: "abc" })).status).toBe(404);
  });
});
