// zod/mini: the same schema in the browser for a fraction of the bytes (decision 060).
import * as z from "zod/mini";

import { SIGN_UP_LIMITS } from "./sign-up-words";

export {
  CONSENT_FORMS,
  NEWS_CONSENT_WORDING,
  SIGN_UP_FIELDS,
  SIGN_UP_LIMITS,
  SIGN_UP_WORDING,
  type ConsentForm,
  type SignUpResult,
} from "./sign-up-words";

/** Characters no visitor types on purpose (PostgreSQL refuses NUL). */
const hasControlCharacter = (value: string) => [...value].some((ch) => ch.charCodeAt(0) < 32 || ch === "\u007f");

/** The footer's and /blog's sign-up form: the name is optional, the address is required. */
export const signUpSchema = z.object({
  name: z.string().check(
    z.trim(),
    z.maxLength(SIGN_UP_LIMITS.name, `Name must be at most ${SIGN_UP_LIMITS.name} characters.`),
    z.refine((v) => !hasControlCharacter(v), "Name contains characters we cannot store."),
  ),
  email: z
    .string()
    .check(
      z.trim(),
      z.toLowerCase(),
      z.minLength(1, "Please enter your email address."),
      z.maxLength(SIGN_UP_LIMITS.email, `Email must be at most ${SIGN_UP_LIMITS.email} characters.`),
      z.regex(z.regexes.html5Email, "Please enter a valid email address."),
    ),
  form: z.enum(["footer", "blog"], "Please sign up with the form in the footer or on the blog."),
  // Where the form was: kept as evidence, so only a path of this site is accepted.
  page: z
    .string()
    .check(
      z.trim(),
      z.maxLength(SIGN_UP_LIMITS.page, "The page could not be read."),
      z.regex(/^\/[^\s]*$/, "The page could not be read."),
    ),
});

export type SignUpInput = z.infer<typeof signUpSchema>;

export const SIGN_UP_THANKS =
  "Thank you. Please check your inbox: we have sent you an email (with a link to confirm, if we need one).";
export const SIGN_UP_RATE_LIMITED = "Too many sign-ups from this connection. Please try again in a few minutes.";
