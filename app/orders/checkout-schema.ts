// zod/mini: the same schema in the browser for a fraction of the bytes (docs/decisions/060-zod-mini-in-the-browser.md).
import * as z from "zod/mini";

/** The checkout customer form, used by the browser before sending and by the action. */
export const CHECKOUT_FIELDS = ["firstName", "lastName", "email", "phone", "address"] as const;
export const CHECKOUT_LIMITS = { name: 100, email: 254, phone: 30, address: 500 } as const;

const MISSING = "Please fill in all required fields";

/** Control characters (other than line breaks and tabs in the address) are never part of a real answer. */
const hasControlCharacter = (value: string, multiline: boolean) =>
  [...value].some((ch) => {
    const code = ch.charCodeAt(0);
    return (code < 32 && !(multiline && (ch === "\n" || ch === "\r" || ch === "\t"))) || code === 127;
  });

const required = (label: string, max: number, { multiline = false } = {}) =>
  z.string({ error: MISSING }).check(
    z.trim(),
    z.minLength(1, MISSING),
    z.maxLength(max, `${label} must be at most ${max} characters.`),
    z.refine((v) => !hasControlCharacter(v, multiline), `${label} contains characters we cannot store.`),
  );

export const checkoutSchema = z.object({
  firstName: required("First name", CHECKOUT_LIMITS.name),
  lastName: required("Last name", CHECKOUT_LIMITS.name),
  // The browser's own rule for type="email", so the server never refuses what the form accepted.
  email: z.pipe(
    required("Email", CHECKOUT_LIMITS.email),
    z.email({ pattern: z.regexes.html5Email, error: "Please enter a valid email address." }),
  ),
  phone: z.pipe(
    required("Phone", CHECKOUT_LIMITS.phone),
    z.string().check(z.regex(/^\+?[0-9 ()-]{7,}$/, "Please enter a valid phone number.")),
  ),
  address: required("Address", CHECKOUT_LIMITS.address, { multiline: true }),
});

export type CheckoutCustomer = z.infer<typeof checkoutSchema>;
export type CheckoutValues = Record<(typeof CHECKOUT_FIELDS)[number], string>;

export interface CheckoutToast {
  title: string;
  description?: string;
  variant?: "default" | "destructive";
}

export const MISSING_INFORMATION_TOAST: CheckoutToast = {
  title: "Missing Information",
  description: MISSING,
  variant: "destructive",
};

export const UNEXPECTED_ERROR_TOAST: CheckoutToast = {
  title: "Unexpected Error",
  description: "Something went wrong. Please try again.",
  variant: "destructive",
};

export const checkoutErrorToast = (reason?: string): CheckoutToast => ({
  title: "Checkout Error",
  description: reason || "Failed to create checkout. Please try again.",
  variant: "destructive",
});

/** The spec's toast for a form that cannot be sent: missing fields first, then the specific problem. */
export function checkoutFormProblem(values: Partial<CheckoutValues>): CheckoutToast | null {
  if (CHECKOUT_FIELDS.some((f) => !(values[f] ?? "").trim())) return MISSING_INFORMATION_TOAST;
  const parsed = checkoutSchema.safeParse(values);
  if (parsed.success) return null;
  return checkoutErrorToast(parsed.error.issues[0]?.message);
}

/** What the /checkout action answers when it does not redirect to the payment page. */
export interface CheckoutActionResult {
  ok: false;
  toast: CheckoutToast;
  /** What the buyer typed, sent back so nothing is lost. */
  values: CheckoutValues;
  /** The attendee names typed, one per seat field (issue 39), and what is wrong with each. */
  attendees?: string[];
  attendeeErrors?: (string | null)[];
  /** The seats chosen on the one-item checkout. */
  seats?: string;
  /** The discount code as typed, and why it was refused (issue 40). */
  discountCode?: string;
  codeError?: string;
}

/** The browser's analytics session id sent with a checkout form, when it is one (a random 8-64 character id). */
export function checkoutSessionId(form: FormData): string | null {
  const value = form.get("sessionId");
  return typeof value === "string" && /^[A-Za-z0-9_-]{8,64}$/.test(value) ? value : null;
}
