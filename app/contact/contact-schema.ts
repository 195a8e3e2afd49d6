// zod/mini: the same schema in the browser for a fraction of the bytes (docs/decisions/060-zod-mini-in-the-browser.md).
import * as z from "zod/mini";

export const CONTACT_LIMITS = { name: 100, email: 254, subject: 200, message: 5000 } as const;

const required = (label: string, max: number) =>
  z.string({ error: "All fields are required to submit your message." }).check(
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
export type ContactValues = Record<keyof ContactInput, string>;

export const CONTACT_FIELDS = ["firstName", "lastName", "email", "subject", "message"] as const;

export interface ContactToast {
  title: string;
  description?: string;
  variant?: "default" | "destructive";
}

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

export const CONTACT_SUCCESS_TOAST: ContactToast = {
  title: "Message sent successfully!",
  description: "Thank you for getting in touch. We'll get back to you soon.",
};

export const CONTACT_FAILURE_TOAST: ContactToast = {
  title: "Failed to send message",
  description: "Please try again or contact us directly.",
  variant: "destructive",
};

/** A body that is not a form, or far larger than the form can produce. */
export const CONTACT_UNREADABLE_TOAST: ContactToast = {
  title: "Please check your message",
  description: "We could not read your message. Please shorten it and try again.",
  variant: "destructive",
};

export const CONTACT_RATE_LIMIT_TOAST: ContactToast = {
  title: "Too many messages",
  description: "You have sent several messages in a short time. Please wait a few minutes and try again.",
  variant: "destructive",
};

export interface ContactActionResult {
  ok: boolean;
  toast: ContactToast;
  /** What the visitor typed, sent back on failure so nothing is lost. */
  values?: ContactValues;
}
