import { asc, count, like } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postAdminSchema } from "~/blog/post-admin-schema";
import { site } from "~/content/site";
import type { DatabaseHandle } from "~/db/client.server";
import { adminAuditLog, appSettings, blogPosts, galleryPhotos, membershipTiers } from "~/db/schema";
import {
  galleryAddSchema,
  galleryCaptionSchema,
  galleryMoveSchema,
  galleryRemoveSchema,
} from "~/gallery/gallery-schema";
import { tierSchema } from "~/memberships/tier-schema";
import * as blogEditRoute from "~/routes/admin/blog-edit";
import * as galleryRoute from "~/routes/admin/gallery";
import * as tiersRoute from "~/routes/admin/memberships";
import * as settingsRoute from "~/routes/admin/settings";
import { siteSettingsSchema } from "~/settings/site-settings";
import { hostileStrings, RUNS } from "../support/generated";
import { createTestDatabase, testConfig } from "../support/test-db";
import { call, multipart, post } from "../support/admin-content";
import type { RouteAnswer } from "../support/route-answer";
import { signedInOwner } from "../support/owner";

// Generated input for the owner's content sections: memberships, blog posts, gallery, settings.
// Never a server error; every bad input answers 4xx and changes nothing (the section's table and
// the audit log are the same afterwards); a save that goes through passed the form's schema.

let handle: DatabaseHandle;
let cookie: string;
beforeAll(async () => {
  handle = await createTestDatabase();
  cookie = await signedInOwner(handle);
});
afterAll(() => handle?.close());

const nasty = hostileStrings({ hugeUpTo: 60_000 });
const auditCount = async () => (await handle.db.select({ n: count() }).from(adminAuditLog))[0]!.n;

/** A value no field of these forms accepts in the place it is put: NUL, a control character, or far too long. */
const bad = (required: boolean) =>
  fc.oneof(
    ...(required ? [fc.constantFrom("", "   ")] : []),
    fc.string({ maxLength: 20 }).map((s) => `${s}\u0000${s}`),
    fc.string({ maxLength: 20 }).map((s) => `x${s}\u0007`),
    fc.integer({ min: 60_001, max: 70_000 }).map((n) => "y".repeat(n)),
  );

/** A known-good form with one field (from `fields`, each marked required or not) replaced by a bad value. */
function oneBadField(valid: Record<string, string>, fields: [string, boolean][]) {
  return fc
    .constantFrom(...fields)
    .chain(([name, required]) => bad(required).map((value) => ({ ...valid, [name]: value })));
}

/** Any field names with hostile values, on top of the form's own fields half the time. */
function anyFields(
  names: readonly string[],
  base: Record<string, string>,
  extra: Record<string, fc.Arbitrary<string>> = {},
) {
  return fc
    .tuple(
      fc.boolean(),
      fc.dictionary(
        fc.oneof(fc.constantFrom(...names), fc.string({ maxLength: 8 })),
        fc.oneof(nasty, ...Object.values(extra)),
        { maxKeys: 10 },
      ),
    )
    .map(([keepBase, fields]) => ({ ...(keepBase ? base : {}), ...fields }));
}

interface Target {
  send: (fields: Record<string, string> | [string, string][]) => Promise<RouteAnswer>;
  snapshot: () => Promise<unknown>;
}

/** Sends one input; a refusal must be 4xx with nothing changed. Returns the answer. */
async function sendAndCheck(target: Target, fields: Record<string, string> | [string, string][]) {
  const [before, auditsBefore] = [await target.snapshot(), await auditCount()];
  const answer = await target.send(fields);
  expect(answer.status).toBeLessThan(500);
  if (answer.status >= 400) {
    expect(await target.snapshot()).toEqual(before);
    expect(await auditCount()).toBe(auditsBefore);
  }
  return answer;
}

const settingsTarget: Target = {
  send: (fields) => call(handle, settingsRoute.action, post("/admin/settings", fields, cookie)),
  snapshot: () =>
    handle.db.select().from(appSettings).where(like(appSettings.key, "site.%")).orderBy(asc(appSettings.key)),
};
const VALID_SETTINGS = {
  email: site.email,
  phone: site.phone,
  whatsapp: site.whatsapp,
  location: site.location,
  availability: site.availability,
  facebook: site.social.facebook,
  instagram: site.social.instagram,
  linkedin: site.social.linkedin,
  ownerEmail: testConfig().mail.ownerEmail,
};

const tiersTarget: Target = {
  send: (fields) => call(handle, tiersRoute.action, post("/admin/memberships", fields, cookie)),
  snapshot: () => handle.db.select().from(membershipTiers).orderBy(asc(membershipTiers.slug)),
};
const VALID_TIER = {
  slug: "creative-healer",
  name: "The Creative Healer",
  price: "200",
  priceText: "",
  description: "D",
  benefits: "One\nTwo",
  sortOrder: "2",
  visible: "on",
  percentOffEvents: "0",
  freeTicketsPerMonth: "0",
  percentOffProducts: "0",
};

const postsSnapshot = () => handle.db.select().from(blogPosts).orderBy(asc(blogPosts.id));
const blogTarget = (id: string | null): Target => ({
  send: (fields) => {
    const path = id === null ? "/admin/blog/new" : `/admin/blog/${id}`;
    const pairs = Array.isArray(fields) ? fields : Object.entries(fields);
    return call(handle, blogEditRoute.action, multipart(path, pairs, cookie), id === null ? {} : { id });
  },
  snapshot: postsSnapshot,
});
const VALID_POST = {
  intent: "save",
  title: "T",
  excerpt: "E",
  author: "",
  category: "",
  content: "C",
  audience: "public",
};

const galleryTarget = (kind: "multipart" | "form"): Target => ({
  send: (fields) => {
    const pairs = Array.isArray(fields) ? fields : Object.entries(fields);
    return call(
      handle,
      galleryRoute.action,
      kind === "multipart" ? multipart("/admin/gallery", pairs, cookie) : post("/admin/gallery", pairs, cookie),
    );
  },
  snapshot: () => handle.db.select().from(galleryPhotos).orderBy(asc(galleryPhotos.id)),
});

const photoPairs = (photos: readonly { src: string; alt: string }[]): [string, string][] =>
  photos.flatMap((p): [string, string][] => [
    ["photoSrc", p.src],
    ["photoAlt", p.alt],
  ]);
const photoArb = fc.record({
  src: fc.oneof(
    nasty,
    fc.constantFrom(
      "/images/hero/hero.svg",
      "/images/blog/upcycling.svg",
      "/media/0123456789abcdef0123.webp",
      "/images/og/share.png",
      "https://evil.example/a.png",
    ),
  ),
  alt: fc.oneof(nasty, fc.constantFrom("A photo", "")),
});

describe("settings, generated input", () => {
  it(`every bad field answers 4xx and changes nothing (${RUNS} generated inputs)`, async () => {
    const fields = Object.keys(VALID_SETTINGS).map((f): [string, boolean] => [
      f,
      !["whatsapp", "facebook", "instagram", "linkedin"].includes(f),
    ]);
    await fc.assert(
      fc.asyncProperty(oneBadField(VALID_SETTINGS, fields), async (input) => {
        expect((await sendAndCheck(settingsTarget, input)).status).toBe(400);
      }),
      { numRuns: RUNS },
    );
  }, 300_000);

  it(`any input: never a server error; a refusal changes nothing; a save passed the schema (${RUNS} generated inputs)`, async () => {
    await fc.assert(
      fc.asyncProperty(anyFields(Object.keys(VALID_SETTINGS), VALID_SETTINGS), async (input) => {
        const answer = await sendAndCheck(settingsTarget, input);
        const values = Object.fromEntries(
          Object.keys(VALID_SETTINGS).map((k) => [k, typeof input[k] === "string" ? input[k] : ""]),
        );
        expect(answer.status === 302).toBe(siteSettingsSchema.safeParse(values).success);
      }),
      { numRuns: RUNS },
    );
  }, 300_000);
});

describe("membership tiers, generated input", () => {
  it(`every bad field answers 4xx and changes nothing (${RUNS} generated inputs)`, async () => {
    const fields: [string, boolean][] = [
      ["slug", true],
      ["name", true],
      ["price", false],
      ["priceText", false],
      ["description", true],
      ["benefits", true],
      ["sortOrder", true],
      ["percentOffEvents", true],
      ["freeTicketsPerMonth", true],
      ["percentOffProducts", true],
    ];
    await fc.assert(
      fc.asyncProperty(oneBadField(VALID_TIER, fields), async (input) => {
        expect((await sendAndCheck(tiersTarget, input)).status).toBeGreaterThanOrEqual(400);
      }),
      { numRuns: RUNS },
    );
  }, 300_000);

  it(`any input: never a server error; a refusal changes nothing; a save passed the schema (${RUNS} generated inputs)`, async () => {
    const slugs = fc.constantFrom("creative-healer", "style-starter", "no-such-tier");
    await fc.assert(
      fc.asyncProperty(anyFields([...Object.keys(VALID_TIER)], VALID_TIER, { slug: slugs }), async (input) => {
        const answer = await sendAndCheck(tiersTarget, input);
        if (answer.status === 302) {
          const text = (k: string) => (typeof input[k] === "string" ? input[k] : "");
          const values = {
            slug: text("slug"),
            name: text("name"),
            price: text("price"),
            confirmPrice: text("confirmPrice"),
            priceText: text("priceText"),
            description: text("description"),
            benefits: text("benefits"),
            sortOrder: text("sortOrder"),
            visible: input.visible === "on",
            percentOffEvents: text("percentOffEvents"),
            freeTicketsPerMonth: text("freeTicketsPerMonth"),
            freeTicketEvents: [],
            allEventsFree: input.allEventsFree === "on",
            percentOffProducts: text("percentOffProducts"),
          };
          expect(tierSchema.safeParse(values).success).toBe(true);
        }
      }),
      { numRuns: RUNS },
    );
  }, 300_000);
});

describe("blog posts, generated input", () => {
  it(`every bad field, on a new post or an edit, answers 4xx and changes nothing (${RUNS} generated inputs)`, async () => {
    const fields: [string, boolean][] = [
      ["title", true],
      ["excerpt", true],
      ["author", false],
      ["category", false],
      ["content", true],
    ];
    await fc.assert(
      fc.asyncProperty(
        oneBadField(VALID_POST, fields),
        fc.constantFrom(null, "1"),
        fc.constantFrom("save", "save-publish"),
        async (input, id, intent) => {
          expect((await sendAndCheck(blogTarget(id), { ...input, intent })).status).toBe(400);
        },
      ),
      { numRuns: RUNS },
    );
  }, 300_000);

  it(
    `any input and photos: never a server error; a refusal changes nothing; a save passed the schema (${RUNS} ` +
      `generated inputs)`,
    async () => {
      const intents = fc.constantFrom("save", "save-publish", "publish", "unpublish", "delete", "");
      await fc.assert(
        fc.asyncProperty(
          anyFields(Object.keys(VALID_POST), VALID_POST, { intent: intents }),
          fc.array(photoArb, { maxLength: 3 }),
          fc.constantFrom(null, "1", "2", "999", "0", "abc"),
          async (input, photos, id) => {
            // Deleting the sample posts would leave nothing to edit: that intent is tried on an unknown id only.
            const fields: Record<string, string> = {
              ...input,
              ...(input.intent === "delete" ? { intent: "publish" } : {}),
            };
            const answer = await sendAndCheck(blogTarget(id), [...Object.entries(fields), ...photoPairs(photos)]);
            if (answer.status === 302 && (fields.intent === "save" || fields.intent === "save-publish")) {
              const text = (k: string) => (typeof fields[k] === "string" ? fields[k] : "");
              const values = {
                title: text("title"),
                excerpt: text("excerpt"),
                author: text("author"),
                category: text("category"),
                content: text("content"),
                photos,
                audience: text("audience"),
                audienceTiers: [],
              };
              expect(postAdminSchema.safeParse(values).success).toBe(true);
            }
          },
        ),
        { numRuns: RUNS },
      );
    },
    300_000,
  );

  it("delete of an unknown or malformed id answers 404 and deletes nothing", async () => {
    for (const id of ["999", "0", "abc"])
      expect((await sendAndCheck(blogTarget(id), { intent: "delete" })).status).toBe(404);
  });
});

describe("gallery, generated input", () => {
  it(`adding: bad photos or captions answer 4xx and change nothing (${RUNS} generated inputs)`, async () => {
    const badAdd = fc.oneof(
      fc.record({
        photos: fc.array(fc.record({ src: fc.constant("/images/about/brand-story.svg"), alt: bad(true) }), {
          minLength: 1,
          maxLength: 2,
        }),
        caption: fc.constant(""),
      }),
      fc.record({ photos: fc.constant([{ src: "/images/about/brand-story.svg", alt: "Fine" }]), caption: bad(false) }),
      fc.record({
        photos: fc.array(fc.record({ src: nasty.filter((s) => !s.startsWith("/")), alt: fc.constant("Fine") }), {
          minLength: 1,
          maxLength: 2,
        }),
        caption: fc.constant(""),
      }),
      fc.record({ photos: fc.constant([]), caption: nasty }),
    );
    await fc.assert(
      fc.asyncProperty(badAdd, async ({ photos, caption }) => {
        const answer = await sendAndCheck(galleryTarget("multipart"), [
          ["intent", "add"],
          ...photoPairs(photos),
          ["caption", caption],
        ]);
        expect(answer.status).toBe(400);
      }),
      { numRuns: RUNS },
    );
  }, 300_000);

  it(
    `any input to any intent: never a server error; a refusal changes nothing; a change passed its schema (${RUNS} ` +
      `generated inputs)`,
    async () => {
      const ids = fc.oneof(nasty, fc.integer({ min: 1, max: 14 }).map(String));
      const input = fc.record({
        intent: fc.oneof(fc.constantFrom("add", "caption", "move", "remove"), nasty),
        id: ids,
        alt: fc.oneof(nasty, fc.constant("A photo")),
        caption: nasty,
        direction: fc.oneof(fc.constantFrom("up", "down"), nasty),
      });
      await fc.assert(
        fc.asyncProperty(
          input,
          fc.array(photoArb, { maxLength: 2 }),
          fc.boolean(),
          async (fields, photos, asMultipart) => {
            // Removing is tried on ids that are not in the gallery only, so that the gallery keeps photos to try the rest on.
            const sent = fields.intent === "remove" ? { ...fields, id: `9${fields.id}` } : fields;
            const answer = await sendAndCheck(galleryTarget(asMultipart ? "multipart" : "form"), [
              ...Object.entries(sent),
              ...photoPairs(photos),
            ]);
            if (answer.status === 302) {
              const schema = {
                add: galleryAddSchema,
                caption: galleryCaptionSchema,
                move: galleryMoveSchema,
                remove: galleryRemoveSchema,
              }[sent.intent as "add"];
              expect(schema).toBeDefined();
              const values = sent.intent === "add" ? { photos, caption: sent.caption } : sent;
              expect(schema.safeParse(values).success).toBe(true);
            }
          },
        ),
        { numRuns: RUNS },
      );
    },
    300_000,
  );
});
