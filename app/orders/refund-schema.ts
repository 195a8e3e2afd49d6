// zod/mini, like every schema a route may also use in the browser (decision 060).
import * as z from "zod/mini";
import { randField } from "~/lib/rand-field";

/** The refund amount's rules, for the schema and the form's preview alike; the order caps it further. */
export const REFUND_AMOUNT_RULES = { label: "Amount", minCents: 1, maxCents: 100_000_000 };

/** The order page's Refund form: how much to give back, read like every typed rand amount (decision 103). */
export const refundSchema = z.object({
  amount: randField(REFUND_AMOUNT_RULES),
  restock: z.boolean(),
});

export type RefundInput = z.infer<typeof refundSchema>;

/** The page's one-time key: a form without it (or with a made-up one) was not sent from the page shown. */
const pageKey = z.string().check(z.regex(/^[\w-]{8,100}$/, "Please reload the page and try again."));

/** The owner's note: trimmed; Postgres text cannot hold NUL, so one is refused like an overlong note. */
const ownerNote = z.string().check(
  z.trim(),
  z.maxLength(2000, "A note can be at most 2,000 characters."),
  z.refine((note) => !note.includes("\u0000"), "A note can be at most 2,000 characters."),
);

/**
 * Every form on the owner's order page, told apart by its `intent`. Which fulfilment method fits
 * depends on the order, so `method` is only read here and checked against the order.
 */
export const orderActionSchema = z.discriminatedUnion(
  "intent",
  [
    z.object({ intent: z.literal("fulfil"), method: z.string() }),
    z.object({ intent: z.literal("refund"), key: pageKey, ...refundSchema.shape }),
    z.object({ intent: z.literal("resend"), key: pageKey }),
    z.object({ intent: z.literal("note"), note: ownerNote }),
  ],
  { error: "Choose an action." },
);

export const ORDER_ACTION_TEXT_FIELDS = ["intent", "key", "method", "amount", "note"] as const;
export const ORDER_ACTION_CHECKBOXES = ["restock"] as const;
