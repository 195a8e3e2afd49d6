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
