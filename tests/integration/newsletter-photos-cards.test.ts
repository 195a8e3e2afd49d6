import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/db/client.server";
import { catalogItems, emailOutbox, events, mediaAssets, newsletters, subscribers } from "~/db/schema";
import { deliverPendingEmails } from "~/email/outbox.server";
import { fixedClock } from "~/lib/clock";
import { formatRand } from "~/lib/money";
import { bytesParam } from "~/media/bytes.server";
import { runNewsletterPass, type SenderSettings } from "~/newsletters/newsletter-sender.server";
import { signedInOwner } from "../support/owner";
import { routeAnswer } from "../support/route-answer";
import { guardedRoute } from "../support/route-middleware";
import { createTestDatabase, testConfig, testContext } from "../support/test-db";

// Issue 42: photos from the media library and a product or event card in a newsletter, in the preview,
// the HTML email (the site's own renditions, absolute) and the text part (plain links).

const edit = guardedRoute("routes/admin/newsletter-edit.tsx");
let handle: DatabaseHandle;
const clock = fixedClock("2025-09-20T10:00:00+02:00");
const context = () => testContext(handle, { clock });
const config = testConfig();
const site = config.siteUrl;
const settings: SenderSettings = {
  siteUrl: site,
  sessionSecret: config.sessionSecret,
  ownerEmail: config.mail.ownerEmail,
  ratePerSecond: 100,
  everyMs: 1_000,
};
const HASHES = ["a1b2c3d4e5f6a7b8c9d0", "0f1e2d3c4b5a69788796", "abcdefabcdefabcdef01", "1234567890abcdef1234"];

beforeEach(async () => {
  await handle?.close();
  handle = await createTestDatabase();
  await handle.db.insert(mediaAssets).values(
    HASHES.map((hash, i) => ({
      hash,
      originalName: `photo-${i}.jpg`,
      width: 1600,
      height: 1200,
      status: "ready" as const,
      master: bytesParam(Buffer.from([i])),
    })),
  );
});
afterAll(() => handle?.close());

function postForm(path: string, fields: [string, string][], cookie: string, params: Record<string, string> = {}) {
  const request = new Request(`http://localhost:3000${path}`, {
    method: "POST",
    headers: { Origin: "http://localhost:3000", "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie },
    body: new URLSearchParams(fields),
  });
  return routeAnswer(() => edit.action({ request, context: context(), params } as never));
}

const photo = (hash: string, alt: string): [string, string][] => [
  ["photoSrc", `/media/${hash}.webp`],
  ["photoAlt", alt],
];

const letter = (extra: [string, string][] = [], intent = "save"): [string, string][] => [
  ["intent", intent],
  ["postId", ""],
  ["title", "Three new skirts and a workshop"],
  ["body", "New this month."],
  ["segment", "subscribers"],
  ["sendAt", ""],
  ...extra,
];

async function aProduct() {
  const [item] = await handle.db
    .select()
    .from(catalogItems)
    .where(and(eq(catalogItems.kind, "product"), eq(catalogItems.visible, true), eq(catalogItems.archived, false)))
    .orderBy(asc(catalogItems.id))
    .limit(1);
  return item!;
}

async function anEvent() {
  const [event] = await handle.db
    .select()
    .from(events)
    .where(and(eq(events.archived, false), eq(events.demo, false)))
    .orderBy(asc(events.id))
    .limit(1);
  return event!;
}

function recordingTransport() {
  const sent: { to: string; subject: string; text: string; html?: string }[] = [];
  return { sent, transport: { sendMail: async (mail: (typeof sent)[number]) => void sent.push(mail) } as never };
}

describe("photos and a shop card in a newsletter", () => {
  it("shows them in the preview, and mails them as absolute renditions and plain-text links", async () => {
    const product = await aProduct();
    await handle.db.insert(subscribers).values({ email: "fan@example.test", status: "subscribed" });
    const owner = await signedInOwner(handle, { clock });

    const saved = await postForm(
      "/admin/newsletters/new",
      letter(
        [
          ...photo(HASHES[0]!, "A green tablecloth skirt on the line"),
          ...photo(HASHES[1]!, "Offcuts sorted by colour"),
          ["card", `product:${product.id}`],
        ],
        "save",
      ),
      owner,
    );
    expect(saved.status).toBe(302);
    const id = /\/admin\/newsletters\/(\d+)$/.exec(saved.location!)![1]!;

    const page = await routeAnswer(() =>
      edit.loader({
        request: new Request(`http://localhost:3000/admin/newsletters/${id}`, { headers: { Cookie: owner } }),
        context: context(),
        params: { id },
      } as never),
    );
    const price = product.priceCents === null ? product.priceText : formatRand(product.priceCents);
    expect(page.body.values.card).toBe(`product:${product.id}`);
    expect(page.body.report.photos).toHaveLength(2);
    expect(page.body.report.card).toMatchObject({
      kind: "product",
      name: product.name,
      price,
      path: `/product/${product.slug}`,
    });
    expect(page.body.cards.products.map((c: { value: string }) => c.value)).toContain(`product:${product.id}`);

    const sent = await postForm(
      `/admin/newsletters/${id}`,
      letter(
        [
          ...photo(HASHES[0]!, "A green tablecloth skirt on the line"),
          ...photo(HASHES[1]!, "Offcuts sorted by colour"),
          ["card", `product:${product.id}`],
        ],
        "send",
      ),
      owner,
      { id },
    );
    expect(sent.status).toBe(302);
    await runNewsletterPass(handle.db, settings, clock.now(), new Date("2030-01-01T00:00:00Z"));
    const { sent: mails, transport } = recordingTransport();
    await deliverPendingEmails(handle.db, { smtpUrl: "smtp://test", from: "shop@example.test" }, transport, () => {});
    expect(mails.map((m) => m.to)).toEqual(["fan@example.test"]);
    const mail = mails[0]!;

    const first = `${site}/media/${HASHES[0]}.800w.webp`;
    const second = `${site}/media/${HASHES[1]}.800w.webp`;
    expect(mail.html).toContain(`src="${first}" alt="A green tablecloth skirt on the line"`);
    expect(mail.html).toContain(`src="${second}" alt="Offcuts sorted by colour"`);
    expect(mail.text).toContain(`Photo, A green tablecloth skirt on the line: ${first}`);
    expect(mail.text).toContain(`Photo, Offcuts sorted by colour: ${second}`);

    const productUrl = `${site}/product/${product.slug}`;
    expect(mail.html).toContain(`href="${productUrl}"`);
    expect(mail.html).toContain(price.replace(/&/g, "&amp;"));
    expect(mail.text).toContain(`${product.name}, ${price}: ${productUrl}`);

    // Every image is the site's own and every link as written or the shop's page: nothing in between.
    for (const [, src] of mail.html!.matchAll(/<img[^>]* src="([^"]+)"/g))
      expect(src!.startsWith(`${site}/`)).toBe(true);
    for (const [, href] of mail.html!.matchAll(/href="([^"]+)"/g)) expect(href!.startsWith(`${site}/`)).toBe(true);
  });

  it("an event card links to the event's page, with its price in words", async () => {
    const event = await anEvent();
    const owner = await signedInOwner(handle, { clock });
    const saved = await postForm("/admin/newsletters/new", letter([["card", `event:${event.id}`]]), owner);
    expect(saved.status).toBe(302);
    const [row] = await handle.db.select().from(newsletters);
    expect(row!.card).toMatchObject({ kind: "event", ref: event.id, price: event.priceText });
    expect(row!.card!.name).toContain(event.title);
    expect(row!.card!.path).toMatch(/^\/(tickets|workshop)\//);
  });

  const bad: [string, () => Promise<[string, string][]>, string, string][] = [
    [
      "a fourth photo",
      async () => letter(HASHES.flatMap((h, i) => photo(h, `Photo ${i + 1}`))),
      "photos",
      "Choose at most 3 photos.",
    ],
    [
      "a photo the media library does not hold",
      async () => letter(photo("ffffffffffffffffffff", "A photo that was never uploaded")),
      "photos.0.src",
      "This photo is not in the media library; upload it again.",
    ],
    [
      "an unknown product",
      async () => letter([["card", "product:999999"]]),
      "card",
      "Choose a product or event from the list: that one is not in the shop.",
    ],
    [
      "a hidden product",
      async () => {
        const product = await aProduct();
        await handle.db.update(catalogItems).set({ visible: false }).where(eq(catalogItems.id, product.id));
        return letter([["card", `product:${product.id}`]]);
      },
      "card",
      "Choose a product or event from the list: that one is not in the shop.",
    ],
    [
      "an unknown event",
      async () => letter([["card", "event:no-such-workshop"]]),
      "card",
      "Choose a product or event from the list: that one is not in the shop.",
    ],
    ["a card that is not one", async () => letter([["card", "coupon:12"]]), "card", "Choose a card from the list."],
  ];
  for (const [what, fields, field, message] of bad) {
    it(`refuses ${what} with a field message and changes nothing`, async () => {
      const owner = await signedInOwner(handle, { clock });
      const draft = await postForm("/admin/newsletters/new", letter(photo(HASHES[0]!, "Kept")), owner);
      const id = /\/admin\/newsletters\/(\d+)$/.exec(draft.location!)![1]!;
      const before = await handle.db.select().from(newsletters);

      const answer = await postForm(`/admin/newsletters/${id}`, await fields(), owner, { id });
      expect(answer.status).toBe(400);
      expect(answer.body.fieldErrors[field]).toBe(message);
      expect(await handle.db.select().from(newsletters)).toEqual(before);
      expect(await handle.db.select().from(emailOutbox)).toEqual([]);
    });
  }
});
