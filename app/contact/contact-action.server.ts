import { sql } from "drizzle-orm";
import type { AppContext } from "~/context.server";
import { contactSubmissions } from "~/db/schema";
import { emailInsert } from "~/email/outbox.server";
import { shopContactFrom } from "~/email/shop-contact.server";
import { ownerContactNotice } from "~/orders/order-emails.server";
import { currentSiteSettings } from "~/settings/site-settings.server";
import { CONTACT_SENT_RESULT } from "./contact-form";
import { hitRateLimit } from "./rate-limit.server";
import { readSmallForm, withoutControlCharacters } from "./read-form.server";
import {
  CONTACT_FAILURE_TOAST,
  CONTACT_FIELDS,
  CONTACT_LIMITS,
  CONTACT_RATE_LIMIT_TOAST,
  CONTACT_UNREADABLE_TOAST,
  contactErrorToast,
  contactSchema,
  type ContactActionResult,
  type ContactValues,
} from "./contact-schema";

export const CONTACT_RATE_LIMIT = { bucket: "contact", limit: 5, windowMs: 10 * 60 * 1000 } as const;
/** The honeypot field name: people never see it, form-filling bots do. */
export const HONEYPOT_FIELD = "website";
/** Room for every field at its limit, percent-encoded, and nothing more. */
export const CONTACT_MAX_BODY_BYTES = 8 * (CONTACT_LIMITS.name * 2 + CONTACT_LIMITS.email + CONTACT_LIMITS.subject + CONTACT_LIMITS.message) + 2048;

function text(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === "string" ? withoutControlCharacters(value) : "";
}

export async function submitContact(
  request: Request,
  context: Pick<AppContext, "db" | "config" | "clock" | "clientIp">,
): Promise<ContactActionResult> {
  const form = await readSmallForm(request, CONTACT_MAX_BODY_BYTES);
  if (!form) {
    const allowed = await hitRateLimit(context.db, CONTACT_RATE_LIMIT, context.clientIp, context.clock.now());
    return { ok: false, toast: allowed ? CONTACT_UNREADABLE_TOAST : CONTACT_RATE_LIMIT_TOAST };
  }
  const values = Object.fromEntries(CONTACT_FIELDS.map((f) => [f, text(form, f)])) as ContactValues;

  const allowed = await hitRateLimit(context.db, CONTACT_RATE_LIMIT, context.clientIp, context.clock.now());
  if (!allowed) return { ok: false, toast: CONTACT_RATE_LIMIT_TOAST, values };

  // Bots that fill the hidden field get the same success answer, and nothing is stored.
  if (text(form, HONEYPOT_FIELD).trim() !== "") return CONTACT_SENT_RESULT;

  const problem = contactErrorToast(values);
  const parsed = contactSchema.safeParse(values);
  if (problem || !parsed.success) return { ok: false, toast: problem ?? CONTACT_FAILURE_TOAST, values };

  const input = parsed.data;
  const sessionId = text(form, "sessionId").slice(0, 100) || null;
  const userAgent = (request.headers.get("user-agent") ?? "").slice(0, 500) || null;
  try {
    // Read first (usually from memory): the message and the owner's notice then land together in one
    // statement, one trip to the database (decision 092); the notice's key names the message by the
    // id its insert took.
    const settings = await currentSiteSettings(context.db, context.config.mail.ownerEmail);
    const notice = ownerContactNotice(input, settings.ownerEmail, shopContactFrom(settings));
    const submitted = context.db.insert(contactSubmissions).values({ ...input, sessionId, userAgent }).returning({ id: contactSubmissions.id });
    const queued = emailInsert(context.db, { ...notice, dedupeKey: sql`'contact:' || (select id from submitted)` });
    await context.db.execute(sql`with submitted as (${submitted.getSQL()}) ${queued.getSQL()}`);
  } catch (error) {
    console.error("contact submission failed", error);
    return { ok: false, toast: CONTACT_FAILURE_TOAST, values };
  }
  return CONTACT_SENT_RESULT;
}
