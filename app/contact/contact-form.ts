// The contact form's constants, texts and types without its schema: what a page needs to draw the
// form. The schema (zod/mini, ~8 KB gzipped) is fetched only when a visitor starts on the form
// (components/contact/ContactForm.tsx, issue 22).

export const CONTACT_LIMITS = { name: 100, email: 254, subject: 200, message: 5000 } as const;

export const CONTACT_FIELDS = ["firstName", "lastName", "email", "subject", "message"] as const;

export type ContactValues = Record<(typeof CONTACT_FIELDS)[number], string>;

export interface ContactToast {
  title: string;
  description?: string;
  variant?: "default" | "destructive";
}

/** Where the form, posted as a page (no JavaScript yet), sends the visitor once the message is stored. */
export const CONTACT_SENT_PATH = "/contact?sent=1";

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

/** The answer to every message that was stored (and to the honeypot, which must look the same). */
export const CONTACT_SENT_RESULT: ContactActionResult = { ok: true, toast: CONTACT_SUCCESS_TOAST };
