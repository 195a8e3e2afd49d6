import type { AppContext } from "~/context.server";
import { hitRateLimit } from "~/contact/rate-limit.server";
import { readSmallForm, withoutControlCharacters } from "~/lib/small-form.server";
import { requestClientKey } from "~/lib/client-address.server";
import { textFields, validateForm } from "~/lib/form";
import {
  SIGN_UP_FIELDS,
  SIGN_UP_LIMITS,
  SIGN_UP_RATE_LIMITED,
  SIGN_UP_THANKS,
  SIGN_UP_WORDING,
  signUpSchema,
  type SignUpResult,
} from "./sign-up-schema";
import { consentAddressHash, requestSubscription } from "./subscriptions.server";

/** Each sign-up may send an email to any address: a connection gets a few, and an address a few a day. */
export const SIGN_UP_RATE_LIMIT = { bucket: "news-sign-up", limit: 5, windowMs: 10 * 60_000 } as const;
export const SIGN_UP_ADDRESS_LIMIT = { bucket: "news-sign-up-address", limit: 3, windowMs: 24 * 3_600_000 } as const;
const MAX_BODY_BYTES = 8 * (SIGN_UP_LIMITS.name + SIGN_UP_LIMITS.email + SIGN_UP_LIMITS.page) + 1024;

/** The footer's and /blog's sign-up: validate, limit, then the double opt-in (or a customer's welcome). */
export async function submitSignUp(
  request: Request,
  context: Pick<AppContext, "db" | "config" | "clock" | "clientIp">,
): Promise<{ status: number; result: SignUpResult }> {
  const form = await readSmallForm(request, MAX_BODY_BYTES);
  if (!form)
    return { status: 400, result: { ok: false, fieldErrors: { form: "The form could not be read." }, values: {} } };
  const fields = textFields(form, SIGN_UP_FIELDS);
  const values = Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, withoutControlCharacters(v)]));
  const valid = validateForm(signUpSchema, fields);
  if (!valid.ok) return { status: 400, result: { ok: false, fieldErrors: valid.fieldErrors, values } };
  const now = context.clock.now();
  const addressKey = `email:${consentAddressHash(context.config.sessionSecret, valid.data.email)}` as const;
  if (
    !(await hitRateLimit(context.db, SIGN_UP_RATE_LIMIT, requestClientKey(context), now)) ||
    !(await hitRateLimit(context.db, SIGN_UP_ADDRESS_LIMIT, addressKey, now))
  )
    return { status: 429, result: { ok: false, fieldErrors: { form: SIGN_UP_RATE_LIMITED }, values } };
  await requestSubscription(
    context.db,
    context.config,
    { email: valid.data.email, name: valid.data.name },
    { wording: SIGN_UP_WORDING, form: valid.data.form, page: valid.data.page },
    now,
  );
  return { status: 200, result: { ok: true, message: SIGN_UP_THANKS } };
}
