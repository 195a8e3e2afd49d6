// The sign-up form's words and limits, without Zod: the footer on every page imports them, and a
// schema's library would ride along into every page's first-load JavaScript (decision 060).

/** The words next to every box or button that asks for the news: kept with each consent as shown. */
export const NEWS_CONSENT_WORDING = "Send me news of new pieces and workshops";

/** What the sign-up form says under its button; stored with the consent, since the person read it there. */
export const SIGN_UP_WORDING =
  `${NEWS_CONSENT_WORDING}. I will confirm by the link you email me, ` +
  "and every email lets me unsubscribe with one click.";

/** The forms that collect a consent, and the wording each shows. */
export const CONSENT_FORMS = ["footer", "blog", "checkout", "account"] as const;
export type ConsentForm = (typeof CONSENT_FORMS)[number] | "unsubscribe";

export const SIGN_UP_FIELDS = ["name", "email", "form", "page"] as const;
export const SIGN_UP_LIMITS = { name: 100, email: 254, page: 200 } as const;

/** What the sign-up action answers: the same words whether or not the address was known (it says nothing about who is subscribed). */
export type SignUpResult =
  { ok: true; message: string } | { ok: false; fieldErrors: Record<string, string>; values: Record<string, unknown> };
