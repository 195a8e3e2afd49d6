import * as z from "zod/mini";
import type { AppContext } from "~/context.server";
import { requestRefund } from "./refunds.server";

/** The owner's refund of one line: which line, how many units or which seats, and whether they go back on sale. */
const id = z.string().check(z.regex(/^[1-9][0-9]{0,8}$/, "Choose what to refund."));
export const lineRefundSchema = z.object({
  key: z.string().check(z.regex(/^[\w-]{8,100}$/, "Please reload the page and try again.")),
  line: id,
  units: z.optional(z.string().check(z.regex(/^[1-9][0-9]?$/, "Choose how many to refund."))),
  seats: z.array(id).check(z.maxLength(50, "Choose the seats to refund.")),
  restock: z.boolean(),
});

export type LineRefundOutcome = { ok: true; title: string; description?: string } | { ok: false; error: string };

/**
 * The order page's "refund-line" form: validated here, then one refund through the provider whose
 * amount the server works out from what the line was charged.
 */
export async function refundLineFromForm(
  context: Pick<AppContext, "db" | "config" | "clock">,
  orderId: string,
  form: FormData,
): Promise<LineRefundOutcome> {
  const text = (name: string) => (typeof form.get(name) === "string" ? String(form.get(name)) : "");
  const parsed = lineRefundSchema.safeParse({
    key: text("key"),
    line: text("line"),
    units: text("units") || undefined,
    seats: form.getAll("seat").map(String),
    restock: form.get("restock") === "on",
  });
  if (!parsed.success) return { ok: false, error: parsed.error.issues[0]?.message ?? "Choose what to refund." };
  const { key, line, units, seats, restock } = parsed.data;
  const result = await requestRefund(context, {
    orderId,
    amountCents: 0,
    restock,
    key,
    line: { orderLineId: Number(line), units: units ? Number(units) : seats.length, ticketIds: seats.map(Number) },
  });
  if (!result.ok) return { ok: false, error: result.error };
  if (result.state === "already-requested") return { ok: true, title: "Refund already requested" };
  const sale = restock ? " and back on sale" : "";
  return result.state === "succeeded"
    ? { ok: true, title: "Refunded", description: `Refunded${sale}; the customer has been emailed.` }
    : {
        ok: true,
        title: "Refund requested",
        description:
          "The order shows refund pending until the payment provider confirms it" +
          (restock ? "; then the units go back on sale." : "."),
      };
}
