// zod/mini, like every schema a route may also use in the browser (decision 060).
import * as z from "zod/mini";
import { normaliseSaPhone, SA_PHONE_EXAMPLE } from "~/lib/phone";
import { isOneLine } from "~/lib/storable-text";

/** The settings form's fields, in the order the form shows them; each is stored as `site.<name>`. */
export const SITE_SETTING_FIELDS = [
  "email",
  "phone",
  "whatsapp",
  "location",
  "availability",
  "facebook",
  "instagram",
  "linkedin",
  "ownerEmail",
] as const;
export type SiteSettingField = (typeof SITE_SETTING_FIELDS)[number];

/** What every visitor may see: the contact details and social pages (never the owner's notification address). */
export interface PublicSiteSettings {
  email: string;
  phone: string;
  /** The WhatsApp number in international form, or empty for no WhatsApp link. */
  whatsapp: string;
  location: string;
  availability: string;
  social: { facebook: string; instagram: string; linkedin: string };
}

export type SiteSettings = Record<SiteSettingField, string>;

const line = (label: string, max: number) =>
  z
    .string()
    .check(
      z.trim(),
      z.minLength(1, `${label} is required.`),
      z.maxLength(max, `${label} must be at most ${max} characters.`),
      z.refine(isOneLine, `${label} must be one line of text.`),
    );

const email = (label: string) =>
  z.string().check(
    z.trim(),
    z.minLength(1, `${label} is required.`),
    z.maxLength(254, `${label} must be at most 254 characters.`),
    // The browser's own rule for type="email", so the server never refuses what the form accepted.
    z.regex(z.regexes.html5Email, `${label} must be an email address, e.g. hello@example.co.za.`),
  );

/** An https address of a page on the web, or empty to show no link. */
function isHttpsUrl(value: string): boolean {
  if (value === "") return true;
  if (!isOneLine(value) || /\s/.test(value)) return false;
  try {
    const url = new URL(value);
    return url.protocol === "https:" && url.hostname.includes(".") && url.username === "" && url.password === "";
  } catch {
    return false;
  }
}

const socialUrl = (label: string) =>
  z
    .string()
    .check(
      z.trim(),
      z.maxLength(300, `${label} must be at most 300 characters.`),
      z.refine(isHttpsUrl, `${label} must be an address starting with https://, or empty to show no link.`),
    );

/** A South African number, stored in international form (+27 72 481 3396); optional ones may be empty. */
const saPhone = (label: string, required: boolean) =>
  z.pipe(
    z.string().check(
      z.trim(),
      z.refine((v) => !required || v !== "", `${label} is required.`),
      z.refine(
        (v) => v === "" || normaliseSaPhone(v) !== null,
        `${label} must be a South African number, e.g. ${SA_PHONE_EXAMPLE}.`,
      ),
    ),
    z.transform((v) => (v === "" ? "" : (normaliseSaPhone(v) ?? v))),
  );

/** The settings form: the admin's one schema for the shop's contact details and the owner's notices. */
export const siteSettingsSchema = z.object({
  email: email("Contact email"),
  phone: saPhone("Phone", true),
  whatsapp: saPhone("WhatsApp number", false),
  location: line("Location", 120),
  availability: line("Availability", 200),
  facebook: socialUrl("Facebook"),
  instagram: socialUrl("Instagram"),
  linkedin: socialUrl("LinkedIn"),
  ownerEmail: email("Notification email"),
});

export type SiteSettingsInput = z.infer<typeof siteSettingsSchema>;
