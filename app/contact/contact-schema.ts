// zod/mini: the same schema in the browser for a fraction of the bytes (docs/decisions/060-zod-mini-in-the-browser.md).
import * as z from "zod/mini";
import { CONTACT_FIELDS, CONTACT_LIMITS, type ContactToast, type ContactValues } from "./contact-form";

export * from "./contact-form";

const required = (label: string, max: number) =>
  z
    .string({ error: "All fields are required to submit your message." })
    .check(
      z.trim(),
      z.minLength(1, "All fields are required to submit your message."),
      z.maxLength(max, `${label} must be at most ${max} characters.`),
    );

/** The one contact form schema, used by the browser before sending and by the action. */
export const contactSchema = z.object({
  firstName: required("First name", CONTACT_LIMITS.name),
  lastName: required("Last name", CONTACT_LIMITS.name),
  // The browser's own rule for type="email", so the server never refuses what the form accepted.
  email: z.pipe(
    required("Email", CONTACT_LIMITS.email),
    z.email({ pattern: z.regexes.html5Email, error: "Please enter a valid email address." }),
  ),
  subject: required("Subject", CONTACT_LIMITS.subject),
  message: required("Message", CONTACT_LIMITS.message),
});

export type ContactInput = z.infer<typeof contactSchema>;

/** Maps a failed parse to the toast the spec asks for: missing fields first, then the specific problem. */
export function contactErrorToast(values: Partial<ContactValues>): ContactToast | null {
  const missing = CONTACT_FIELDS.some((f) => !(values[f] ?? "").trim());
  if (missing) {
    return {
      title: "Please fill in all fields",
      description: "All fields are required to submit your message.",
      variant: "destructive",
    };
  }
  const parsed = contactSchema.safeParse(values);
  if (parsed.success) return null;
  return { title: "Please check your message", description: parsed.error.issues[0]?.message, variant: "destructive" };
}
