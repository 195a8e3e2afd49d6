import { desc, eq, like, sql } from "drizzle-orm";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { site } from "~/content/site";
import type { DatabaseHandle } from "~/db/client.server";
import { adminAuditLog, appSettings, emailOutbox, orders } from "~/db/schema";
import { recordPayment } from "~/orders/payment-events.server";
import * as rootRoute from "~/root";
import { siteSettingsSchema } from "~/settings/site-settings";
import { getSiteSettings, ownerNotificationEmail } from "~/settings/site-settings.server";
import { submitContact } from "~/contact/contact-action.server";
import { guardedRoute } from "../support/route-middleware";
import { createTestDatabase, testConfig, testContext } from "../support/test-db";
import { call, get, post, toastOf } from "../support/admin-content";
import { checkout, orderIdFrom } from "../support/checkout";
import { signedInOwner } from "../support/owner";

// Admin routes as React Router calls them: their layouts' middleware checks the session (decision 110).
const settingsRoute = guardedRoute("routes/admin/settings.tsx");

const OWNER_EMAIL = testConfig().mail.ownerEmail;
let handle: DatabaseHandle;
let cookie: string;
beforeAll(async () => {
  handle = await createTestDatabase();
  cookie = await signedInOwner(handle);
});
afterAll(() => handle?.close());

const DEFAULT_FORM = {
  email: site.email,
  phone: site.phone,
  whatsapp: site.whatsapp,
  location: site.location,
  availability: site.availability,
  facebook: site.social.facebook,
  instagram: site.social.instagram,
  linkedin: site.social.linkedin,
  ownerEmail: OWNER_EMAIL,
};
const stored = async () => handle.db.select().from(appSettings).where(like(appSettings.key, "site.%"));

describe("site settings", () => {
  it("are the defaults (app/content/site.ts and OWNER_EMAIL) until the owner saves", async () => {
    expect(await getSiteSettings(handle.db, "owner@example.test")).toEqual({
      ...DEFAULT_FORM,
      ownerEmail: "owner@example.test",
    });
    const root = await call(handle, rootRoute.loader, get("/"));
    expect(root.body.settings).toEqual({
      email: site.email,
      phone: site.phone,
      whatsapp: "",
      location: site.location,
      availability: site.availability,
      social: site.social,
    });
    // The owner's notification address is never in a page's data.
    expect(JSON.stringify(root.body)).not.toContain(OWNER_EMAIL);
  });

  it("a save stores only what differs from the defaults, with one audit entry, and the public data shows it", async () => {
    const answer = await call(
      handle,
      settingsRoute.action,
      post("/admin/settings", { ...DEFAULT_FORM, phone: " +27 82 555 0101 ", linkedin: "" }, cookie),
    );
    expect(answer.status).toBe(302);
    expect(answer.headers.get("location")).toBe("/admin/settings");
    expect(toastOf(answer)?.title).toBe("Settings saved");
    expect((await stored()).map((r) => [r.key, r.value]).sort()).toEqual([
      ["site.linkedin", ""],
      ["site.phone", "+27 82 555 0101"],
    ]);
    const [entry] = await handle.db.select().from(adminAuditLog).orderBy(desc(adminAuditLog.id)).limit(1);
    expect(entry).toMatchObject({
      action: "settings.update",
      before: { phone: site.phone, linkedin: site.social.linkedin },
      after: { phone: "+27 82 555 0101", linkedin: "" },
    });

    const root = await call(handle, rootRoute.loader, get("/contact"));
    expect(root.body.settings).toMatchObject({ phone: "+27 82 555 0101", social: { linkedin: "" } });
  });

  it("a field set back to its default is no longer stored, so a new default reaches it", async () => {
    await call(
      handle,
      settingsRoute.action,
      post("/admin/settings", { ...DEFAULT_FORM, phone: "+27 82 555 0101" }, cookie),
    );
    expect((await stored()).map((r) => r.key)).toEqual(["site.phone"]);
  });

  it("saving without a change writes nothing", async () => {
    const audits = (await handle.db.select().from(adminAuditLog)).length;
    const answer = await call(
      handle,
      settingsRoute.action,
      post("/admin/settings", { ...DEFAULT_FORM, phone: "+27 82 555 0101" }, cookie),
    );
    expect(toastOf(answer)?.title).toBe("Nothing to save");
    expect((await handle.db.select().from(adminAuditLog)).length).toBe(audits);
  });

  it.each([
    ["email", "not-an-email"],
    ["phone", "call me maybe"],
    ["phone", ""],
    ["phone", "+44 20 7946 0958"],
    ["phone", "072 481 339"],
    ["whatsapp", "wa.me/27724813396"],
    ["whatsapp", "12345"],
    ["location", "Line one\nLine two"],
    ["availability", "x".repeat(201)],
    ["facebook", "http://www.facebook.com/honeybee"],
    ["instagram", "javascript:alert(1)"],
    ["linkedin", "https://user:pass@linkedin.com/x"],
    ["ownerEmail", ""],
  ])("refuses a bad %s (%j) with a message for that field and changes nothing", async (field, value) => {
    const before = await stored();
    const answer = await call(
      handle,
      settingsRoute.action,
      post("/admin/settings", { ...DEFAULT_FORM, [field]: value }, cookie),
    );
    expect(answer.status).toBe(400);
    expect((answer.body.fieldErrors as Record<string, string>)[field]).toBeTruthy();
    expect(await stored()).toEqual(before);
  });

  it("stores phone numbers typed in any usual South African form in international form", async () => {
    const answer = await call(
      handle,
      settingsRoute.action,
      post("/admin/settings", { ...DEFAULT_FORM, phone: "082 555 0101", whatsapp: "0724813396" }, cookie),
    );
    expect(answer.status).toBe(302);
    expect(Object.fromEntries((await stored()).map((r) => [r.key, r.value]))).toMatchObject({
      "site.phone": "+27 82 555 0101",
      "site.whatsapp": "+27 72 481 3396",
    });
    const root = await call(handle, rootRoute.loader, get("/contact"));
    expect(root.body.settings).toMatchObject({ phone: "+27 82 555 0101", whatsapp: "+27 72 481 3396" });
    // Typed another way, the same numbers are no change at all.
    const again = await call(
      handle,
      settingsRoute.action,
      post("/admin/settings", { ...DEFAULT_FORM, phone: "27825550101", whatsapp: "+27 (0)72 481 3396" }, cookie),
    );
    expect(toastOf(again)?.title).toBe("Nothing to save");
    // An emptied WhatsApp number shows no link again.
    await call(
      handle,
      settingsRoute.action,
      post("/admin/settings", { ...DEFAULT_FORM, phone: "+27 82 555 0101" }, cookie),
    );
    expect((await stored()).map((r) => r.key)).toEqual(["site.phone"]);
  });

  it("the migration 'small' rewrote shop numbers stored in an SA form, and left any other alone", async () => {
    const file = fs.readdirSync("drizzle").find((f) => /^\d{4}_small\.sql$/.test(f))!;
    const backfill = fs
      .readFileSync(path.join("drizzle", file), "utf8")
      .split("--> statement-breakpoint")
      .find((part) => part.includes("UPDATE"))!;
    const before = await stored();
    await handle.db
      .insert(appSettings)
      .values([
        { key: "site.phone", value: "(072) 481-3396" },
        { key: "site.whatsapp", value: "+44 20 7946 0958" },
      ])
      .onConflictDoUpdate({ target: appSettings.key, set: { value: sql`excluded.value` } });
    await handle.db.execute(sql.raw(backfill));
    expect(Object.fromEntries((await stored()).map((r) => [r.key, r.value]))).toMatchObject({
      "site.phone": "+27 72 481 3396",
      "site.whatsapp": "+44 20 7946 0958",
    });
    await handle.db.delete(appSettings).where(like(appSettings.key, "site.%"));
    if (before.length) await handle.db.insert(appSettings).values(before);
  });

  let sender = 0;
  it("owner notices go to the stored notification address, else OWNER_EMAIL", async () => {
    expect(await ownerNotificationEmail(handle.db, OWNER_EMAIL)).toBe(OWNER_EMAIL);
    const contact = () =>
      submitContact(
        post("/contact", {
          firstName: "Ada",
          lastName: "Lovelace",
          email: "ada@example.test",
          subject: "Hello",
          message: "A message for the owner.",
        }),
        testContext(handle, { clientIp: `198.51.100.${++sender}` }),
      );
    await contact();
    await call(
      handle,
      settingsRoute.action,
      post(
        "/admin/settings",
        { ...DEFAULT_FORM, phone: "+27 82 555 0101", ownerEmail: "orders@honeybee.example" },
        cookie,
      ),
    );
    await contact();
    const mails = await handle.db.select().from(emailOutbox).orderBy(desc(emailOutbox.id)).limit(2);
    expect(mails.map((m) => m.toAddress)).toEqual(["orders@honeybee.example", OWNER_EMAIL]);
  });

  it("a paid order's emails: the owner's notice to the stored address, the buyer's with the stored contact details", async () => {
    const orderId = orderIdFrom(await checkout(handle, "membership", "style-starter"));
    const [order] = await handle.db.select().from(orders).where(eq(orders.id, orderId));
    const paid = await recordPayment(handle.db, {
      event: { eventId: `evt-settings-${orderId}`, provider: "simulator", eventType: "payment.succeeded", payload: {} },
      orderId,
      paymentId: "pay-settings",
      amountCents: order!.amountCents,
      now: new Date("2025-09-10T08:00:00Z"),
      mail: {
        siteUrl: "http://localhost:3000",
        ownerEmail: OWNER_EMAIL,
        secret: "test-secret-test-secret-test-secret",
      },
    });
    expect(paid.outcome).toBe("paid");
    const mails = await handle.db
      .select()
      .from(emailOutbox)
      .where(like(emailOutbox.dedupeKey, `order-%:${orderId}`));
    const notice = mails.find((m) => m.dedupeKey?.startsWith("order-owner-notice"));
    const confirmation = mails.find((m) => m.dedupeKey?.startsWith("order-confirmation"));
    expect(notice?.toAddress).toBe("orders@honeybee.example");
    expect(confirmation?.textBody).toContain("+27 82 555 0101");
    expect(confirmation?.textBody).toContain(site.email);
  });

  it("the loader shows the stored values to the owner; anyone else is sent to sign in", async () => {
    const page = await call(handle, settingsRoute.loader, get("/admin/settings", cookie));
    expect(page.body.values).toMatchObject({ phone: "+27 82 555 0101", ownerEmail: "orders@honeybee.example" });
    const anonymous = await call(handle, settingsRoute.loader, get("/admin/settings"));
    expect(anonymous.headers.get("location")).toBe("/admin/login");
  });

  it("the schema accepts the shipped defaults (so a first save of the untouched form works)", () => {
    expect(siteSettingsSchema.safeParse(DEFAULT_FORM).success).toBe(true);
  });
});
