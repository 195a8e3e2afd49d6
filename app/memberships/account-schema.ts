// zod/mini: the same schemas in the browser for a fraction of the bytes (docs/decisions/060-zod-mini-in-the-browser.md).
import * as z from "zod/mini";

export const ACCOUNT_LIMITS = { email: 254, name: 100, phone: 30 } as const;

const hasControlCharacter = (value: string) =>
  [...value].some((ch) => {
    const code = ch.charCodeAt(0);
    return code < 32 || code === 127;
  });

const required = (label: string, max: number, missing: string) =>
  z.string({ error: missing }).check(
    z.trim(),
    z.minLength(1, missing),
    z.maxLength(max, `${label} must be at most ${max} characters.`),
    z.refine((v) => !hasControlCharacter(v), `${label} contains characters we cannot store.`),
  );

/** The one-field form that asks for a sign-in link. */
export const signInRequestSchema = z.object({
  // The browser's own rule for type="email", so the server never refuses what the form accepted.
  email: z.pipe(
    required("Email", ACCOUNT_LIMITS.email, "Please enter your email address."),
    z.email({ pattern: z.regexes.html5Email, error: "Please enter a valid email address." }),
  ),
});

/** The member's own details: what the form checks before sending and what the action accepts. */
export const memberDetailsSchema = z.object({
  name: required("Name", ACCOUNT_LIMITS.name, "Please enter your name."),
  phone: z.pipe(
    required("Phone", ACCOUNT_LIMITS.phone, "Please enter your phone number."),
    z.string().check(z.regex(/^\+?[0-9 ()-]{7,}$/, "Please enter a valid phone number.")),
  ),
});

export type MemberDetails = z.infer<typeof memberDetailsSchema>;
export type FieldErrors<T> = Partial<Record<keyof T, string>>;

/** The first message for each field of a failed parse, for messages under the fields. */
export function fieldErrors<T extends Record<string, unknown>>(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
): FieldErrors<T> {
  const errors: Record<string, string> = {};
  for (const issue of issues) {
    const key = String(issue.path[0] ?? "");
    if (key && !(key in errors)) errors[key] = issue.message;
  }
  return errors as FieldErrors<T>;
}

/** The plan select's one field: a tier's slug (the action checks it is a visible, priced tier). */
export const changePlanSchema = z.object({
  tier: z.string().check(z.trim(), z.minLength(1, "Please choose a plan."), z.maxLength(100, "Please choose a plan.")),
});
