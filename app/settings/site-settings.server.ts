import { eq, inArray, like } from "drizzle-orm";
import { changedFields, recordAudit } from "~/admin/audit.server";
import { site } from "~/content/site";
import type { Database } from "~/db/client.server";
import { appSettings } from "~/db/schema";
import { SITE_SETTING_FIELDS, type PublicSiteSettings, type SiteSettingField, type SiteSettings, type SiteSettingsInput } from "./site-settings";

type Reader = Pick<Database, "select">;

const KEY_PREFIX = "site.";
const keyOf = (field: SiteSettingField) => `${KEY_PREFIX}${field}`;

/** What the shop says before the owner changes anything: app/content/site.ts and OWNER_EMAIL. */
export function defaultSiteSettings(ownerEmail: string): SiteSettings {
  return {
    email: site.email,
    phone: site.phone,
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
  const rows = await db.select({ key: appSettings.key, value: appSettings.value }).from(appSettings).where(like(appSettings.key, `${KEY_PREFIX}%`));
  const settings = defaultSiteSettings(ownerEmail);
  for (const row of rows) {
    const field = row.key.slice(KEY_PREFIX.length) as SiteSettingField;
    if ((SITE_SETTING_FIELDS as readonly string[]).includes(field)) settings[field] = row.value;
  }
  return settings;
}

/** The part of the settings every page may show. */
export function publicSiteSettings(settings: SiteSettings): PublicSiteSettings {
  return {
    email: settings.email,
    phone: settings.phone,
    location: settings.location,
    availability: settings.availability,
    social: { facebook: settings.facebook, instagram: settings.instagram, linkedin: settings.linkedin },
  };
}

/** Where the owner's notices (new messages, paid orders) go: her stored address, else OWNER_EMAIL. */
export async function ownerNotificationEmail(db: Reader, fallback: string): Promise<string> {
  const [row] = await db.select({ value: appSettings.value }).from(appSettings).where(eq(appSettings.key, keyOf("ownerEmail")));
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
  return db.transaction(async (tx) => {
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
      { action: "settings.update", entity: "settings", entityId: "site", summary: `Changed ${changed.join(", ")} in the shop's settings`, before: diff.before, after: diff.after },
      now,
    );
    return { changed };
  });
}
