import { sql } from "drizzle-orm";
import type { AppContext } from "~/context.server";
import { contactSubmissions, emailOutbox } from "~/db/schema";
import type { Database } from "~/db/client.server";
import { insertRowSelect } from "~/db/insert-row-select.server";
import { requestClientKey, type ClientKey } from "~/lib/client-address.server";
import { textFields } from "~/lib/form";
import { emailRow, type OutgoingEmail } from "~/email/outbox.server";
import { shopContactFrom } from "~/email/shop-contact.server";
import { currentSiteSettings } from "~/settings/site-settings.server";
import { ownerContactNotice } from "./contact-emails.server";
import { CONTACT_SENT_RESULT } from "./contact-form";
import { hitRateLimit, rateLimitHit, withinLimit } from "./rate-limit.server";
import { readSmallForm, withoutControlCharacters } from "~/lib/small-form.server";
import {
  CONTACT_FAILURE_TOAST,
  CONTACT_FIELDS,
  CONTACT_LIMITS,
  CONTACT_RATE_LIMIT_TOAST,
  CONTACT_UNREADABLE_TOAST,
  contactErrorToast,
  contactSchema,
  type ContactActionResult,
} from "./contact-schema";

export const CONTACT_RATE_LIMIT = { bucket: "contact", limit: 5, windowMs: 10 * 60 * 1000 } as const;
/** The honeypot field name: people never see it, form-filling bots do. */
export const HONEYPOT_FIELD = "website";
/** Room for every field at its limit, percent-encoded, and nothing more. */
export const CONTACT_MAX_BODY_BYTES =
  8 * (CONTACT_LIMITS.name * 2 + CONTACT_LIMITS.email + CONTACT_LIMITS.subject + CONTACT_LIMITS.message) + 2048;

/** The form's text fields, without the control characters PostgreSQL would refuse. */
function textOf<K extends string>(form: FormData, names: readonly K[]): Record<K, string> {
  const fields = textFields(form, names);
  for (const name of names) fields[name] = withoutControlCharacters(fields[name]);
  return fields;
}

export async function submitContact(
  request: Request,
  context: Pick<AppContext, "db" | "config" | "clock" | "clientIp">,
): Promise<ContactActionResult> {
  const form = await readSmallForm(request, CONTACT_MAX_BODY_BYTES);
  if (!form) {
    const allowed = await hitRateLimit(context.db, CONTACT_RATE_LIMIT, requestClientKey(context), context.clock.now());
    return { ok: false, toast: allowed ? CONTACT_UNREADABLE_TOAST : CONTACT_RATE_LIMIT_TOAST };
  }
  const {
    [HONEYPOT_FIELD]: honeypot,
    sessionId,
    ...values
  } = textOf(form, [...CONTACT_FIELDS, HONEYPOT_FIELD, "sessionId"] as const);
  const now = context.clock.now();

  // Bots that fill the hidden field get the same success answer, and nothing is stored. They, and a
  // message refused for its fields, still count against the visitor's limit, which is checked first.
  const isBot = honeypot.trim() !== "";
  const problem = contactErrorToast(values);
  const parsed = contactSchema.safeParse(values);
  if (isBot || problem || !parsed.success) {
    if (!(await hitRateLimit(context.db, CONTACT_RATE_LIMIT, requestClientKey(context), now)))
      return { ok: false, toast: CONTACT_RATE_LIMIT_TOAST, values };
    return isBot ? CONTACT_SENT_RESULT : { ok: false, toast: problem ?? CONTACT_FAILURE_TOAST, values };
  }

  const message = {
    ...parsed.data,
    sessionId: sessionId.slice(0, 100) || null,
    userAgent: (request.headers.get("user-agent") ?? "").slice(0, 500) || null,
    // The shop's one clock, as the dashboard's periods and its unanswered list read it.
    createdAt: now,
  };
  try {
    // Usually from memory (decision 093), so the statement below is the message's one trip.
    const settings = await currentSiteSettings(context.db, context.config.mail.ownerEmail);
    const notice = ownerContactNotice(parsed.data, settings.ownerEmail, shopContactFrom(settings));
    if (!(await storeWithinLimit(context.db, message, notice, requestClientKey(context), now)))
      return { ok: false, toast: CONTACT_RATE_LIMIT_TOAST, values };
  } catch (error) {
    console.error("contact submission failed", error);
    return { ok: false, toast: CONTACT_FAILURE_TOAST, values };
  }
  return CONTACT_SENT_RESULT;
}

/**
 * Counts the visitor's hit and, within the limit, stores the message and queues the owner's notice,
 * keyed by the id the message took: one statement, so one trip to the database, which under a crowd
 * is one wait fewer for the event loop (decision 100). Says whether the hit was within the limit.
 */
async function storeWithinLimit(
  db: Database,
  message: typeof contactSubmissions.$inferInsert,
  notice: OutgoingEmail,
  client: ClientKey,
  now: Date,
): Promise<boolean> {
  const hit = rateLimitHit(db, CONTACT_RATE_LIMIT, client, now);
  const submitted = insertRowSelect(
    contactSubmissions,
    message,
    sql`hit where hit.hits <= ${CONTACT_RATE_LIMIT.limit}`,
  );
  const queued = insertRowSelect(
    emailOutbox,
    emailRow({ ...notice, dedupeKey: sql`'contact:' || submitted.id` }),
    sql`submitted`,
  );
  const result = await db.execute(sql`
    with hit as (${hit.getSQL()}),
    submitted as (${submitted} returning ${sql.identifier(contactSubmissions.id.name)} as id),
    queued as (${queued} on conflict (${sql.identifier(emailOutbox.dedupeKey.name)}) do nothing)
    select hits from hit`);
  const [row] = (result as unknown as { rows: { hits: number }[] }).rows;
  return withinLimit(CONTACT_RATE_LIMIT, row?.hits);
}
