import { eq, inArray, like } from "drizzle-orm";
import { changedFields, recordAudit } from "~/admin/audit.server";
import { site } from "~/content/site";
import type { Database } from "~/db/client.server";
import { appSettings } from "~/db/schema";
import {
  SITE_SETTING_FIELDS,
  type PublicSiteSettings,
  type SiteSettingField,
  type SiteSettings,
  type SiteSettingsInput,
} from "./site-settings";

type Reader = Pick<Database, "select">;

const KEY_PREFIX = "site.";
const keyOf = (field: SiteSettingField) => `${KEY_PREFIX}${field}`;

/** What the shop says before the owner changes anything: app/content/site.ts and OWNER_EMAIL. */
export function defaultSiteSettings(ownerEmail: string): SiteSettings {
  return {
    email: site.email,
    phone: site.phone,
    whatsapp: site.whatsapp,
    location: site.location,
    availability: site.availability,
    facebook: site.social.facebook,
    instagram: site.social.instagram,
    linkedin: site.social.linkedin,
    ownerEmail,
  };
}

/**
 * The shop's settings: the defaults with the owner's stored `site.*` rows laid over them, in one
 * small query (a handful of rows at most).
 */
export async function getSiteSettings(db: Reader, ownerEmail: string): Promise<SiteSettings> {
  const rows = await db
    .select({ key: appSettings.key, value: appSettings.value })
    .from(appSettings)
    .where(like(appSettings.key, `${KEY_PREFIX}%`));
  const settings = defaultSiteSettings(ownerEmail);
  for (const row of rows) {
    const field = row.key.slice(KEY_PREFIX.length) as SiteSettingField;
    if ((SITE_SETTING_FIELDS as readonly string[]).includes(field)) settings[field] = row.value;
  }
  return settings;
}

/**
 * How long one instance keeps the settings it read. Every page shows them and every contact message
 * and payment addresses the owner with them: read each time, they were a fifth of all queries in the
 * soak (issue 22), and on PGlite every query waits its turn. The owner changes them a few times a
 * year. A save on this instance is seen at once; another instance sees it within this time, as its
 * page cache sees any change (server/page-cache.ts checks the content version as often).
 */
export const SITE_SETTINGS_FRESH_MS = 250;

interface Remembered {
  ownerEmail: string;
  readAt: number;
  read: Promise<SiteSettings>;
}
/** Per database (each test opens its own), so one never answers for another. */
const remembered = new WeakMap<object, Remembered>();

/**
 * The settings as `getSiteSettings` reads them, from memory when read on this instance within
 * SITE_SETTINGS_FRESH_MS. Concurrent callers share one read. Not for a transaction that must see its
 * own writes: that calls `getSiteSettings(tx, …)`.
 */
export async function currentSiteSettings(db: Reader, ownerEmail: string): Promise<SiteSettings> {
  const now = performance.now();
  let entry = remembered.get(db);
  if (!entry || entry.ownerEmail !== ownerEmail || now - entry.readAt >= SITE_SETTINGS_FRESH_MS) {
    const fresh: Remembered = (entry = { ownerEmail, readAt: now, read: getSiteSettings(db, ownerEmail) });
    remembered.set(db, fresh);
    // A failed read is not remembered: the next caller asks the database again.
    fresh.read.catch(() => remembered.get(db) === fresh && remembered.delete(db));
  }
  // A copy: no caller can change what the next one reads.
  return { ...(await entry.read) };
}

/** Forgets what this instance remembered, so the next read asks the database (after a save). */
export function forgetSiteSettings(db: object): void {
  remembered.delete(db);
}

/** The part of the settings every page may show. */
export function publicSiteSettings(settings: SiteSettings): PublicSiteSettings {
  return {
    email: settings.email,
    phone: settings.phone,
    whatsapp: settings.whatsapp,
    location: settings.location,
    availability: settings.availability,
    social: { facebook: settings.facebook, instagram: settings.instagram, linkedin: settings.linkedin },
  };
}

/** Where the owner's notices (new messages, paid orders) go: her stored address, else OWNER_EMAIL. */
export async function ownerNotificationEmail(db: Reader, fallback: string): Promise<string> {
  const [row] = await db
    .select({ value: appSettings.value })
    .from(appSettings)
    .where(eq(appSettings.key, keyOf("ownerEmail")));
  return row?.value ?? fallback;
}

/**
 * Stores the settings form. A field equal to its default is not stored (its row is removed), so a
 * later change of the defaults (a new OWNER_EMAIL) still reaches the fields the owner never set.
 * One audit entry names what changed; saving without a change writes nothing.
 */
export async function saveSiteSettings(
  db: Database,
  input: SiteSettingsInput,
  now: Date,
  ownerEmailDefault: string,
): Promise<{ changed: SiteSettingField[] }> {
  const defaults = defaultSiteSettings(ownerEmailDefault);
  // Forgotten again once it has committed: a read in between may have remembered the old values.
  forgetSiteSettings(db);
  const saved = await db.transaction(async (tx) => {
    const before = await getSiteSettings(tx, ownerEmailDefault);
    const diff = changedFields(before, input);
    const changed = diff.fields as SiteSettingField[];
    if (!changed.length) return { changed };
    const toDefault = changed.filter((f) => input[f] === defaults[f]);
    const toStore = changed.filter((f) => input[f] !== defaults[f]);
    if (toDefault.length) await tx.delete(appSettings).where(inArray(appSettings.key, toDefault.map(keyOf)));
    for (const field of toStore) {
      await tx
        .insert(appSettings)
        .values({ key: keyOf(field), value: input[field], updatedAt: now })
        .onConflictDoUpdate({ target: appSettings.key, set: { value: input[field], updatedAt: now } });
    }
    await recordAudit(
      tx,
      {
        action: "settings.update",
        entity: "settings",
        entityId: "site",
        summary: `Changed ${changed.join(", ")} in the shop's settings`,
        before: diff.before,
        after: diff.after,
      },
      now,
    );
    return { changed };
  });
  forgetSiteSettings(db);
  return saved;
}
