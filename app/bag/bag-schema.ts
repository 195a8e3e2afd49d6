// zod/mini: the same schema in the browser for a fraction of the bytes (decision 060).
import * as z from "zod/mini";

/** The most of one thing a bag line holds, and the most lines one bag holds (issue 39). */
export const MAX_LINE_QUANTITY = 10;
export const MAX_BAG_LINES = 20;

export const BAG_FIELDS = ["intent", "kind", "id", "line", "quantity", "inPlace"] as const;

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
    }),
    z.object({ intent: z.literal("set"), line: id("That line is no longer in your bag."), quantity }),
    z.object({ intent: z.literal("remove"), line: id("That line is no longer in your bag.") }),
  ],
  { error: "Choose an action." },
);

export type BagAction = z.infer<typeof bagActionSchema>;

/** What /bag answers a form sent by a fetcher (the page stays where it is). */
export interface BagActionResult {
  ok: boolean;
  message: string;
  count: number;
}

/** The bag's count cookie, readable by the page's script: the header shows it without a per-visitor render. */
export const BAG_COUNT_COOKIE = "hb_bag_n";

/** The number in the count cookie (0 when missing or unreadable). */
export function bagCountFromCookies(cookieHeader: string): number {
  for (const part of cookieHeader.split(";")) {
    const [name, value] = part.trim().split("=");
    if (name === BAG_COUNT_COOKIE && value && /^[0-9]{1,4}$/.test(value)) return Number(value);
  }
  return 0;
}

/** The quantities a select offers for something with `available` left (null: not counted). */
export function quantityChoices(available: number | null): number[] {
  const most = Math.min(MAX_LINE_QUANTITY, available ?? MAX_LINE_QUANTITY);
  return Array.from({ length: Math.max(0, most) }, (_, i) => i + 1);
}

/** Said where a bag checkout finds nothing to buy. */
export const EMPTY_BAG_REASON = "Your bag is empty. Add something from the shop or an event first.";
