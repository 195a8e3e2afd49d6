// zod/mini: the same schema in the browser for a fraction of the bytes (decision 060).
import * as z from "zod/mini";

import { MAX_LINE_QUANTITY } from "./bag-limits";

export const BAG_FIELDS = ["intent", "kind", "id", "line", "quantity", "inPlace", "option1", "option2"] as const;

const quantity = z.pipe(
  z.string().check(z.trim(), z.regex(/^[0-9]{1,3}$/, `Please choose a quantity from 1 to ${MAX_LINE_QUANTITY}.`)),
  z.pipe(
    z.transform((v: string) => Number(v)),
    z
      .number()
      .check(
        z.gte(1, `Please choose a quantity from 1 to ${MAX_LINE_QUANTITY}.`),
        z.lte(MAX_LINE_QUANTITY, `Please choose a quantity from 1 to ${MAX_LINE_QUANTITY}.`),
      ),
  ),
);

const id = (message: string) =>
  z.pipe(
    z.string().check(z.regex(/^[1-9][0-9]{0,8}$/, message)),
    z.transform((v: string) => Number(v)),
  );

/** Every form that changes a bag: add (from a product or ticket option), change a line's quantity, remove a line. */
export const bagActionSchema = z.discriminatedUnion(
  "intent",
  [
    z.object({
      intent: z.literal("add"),
      kind: z.enum(["catalog", "ticket"], "We could not find that item."),
      id: id("We could not find that item."),
      quantity,
      // A product's size or colour, as its page's radio buttons name them; whether they fit is the catalog's to say.
      option1: z.optional(z.string().check(z.maxLength(100, "Please choose again."))),
      option2: z.optional(z.string().check(z.maxLength(100, "Please choose again."))),
    }),
    z.object({ intent: z.literal("set"), line: id("That line is no longer in your bag."), quantity }),
    z.object({ intent: z.literal("remove"), line: id("That line is no longer in your bag.") }),
  ],
  { error: "Choose an action." },
);

export type BagAction = z.infer<typeof bagActionSchema>;
