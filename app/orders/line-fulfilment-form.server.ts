import * as z from "zod/mini";
import type { AppContext } from "~/context.server";
import { markLines } from "./line-fulfilment.server";

/** The owner's marking of some lines of an order: which lines, and how the products among them went. */
const lineId = z.string().check(z.regex(/^[1-9][0-9]{0,8}$/, "Choose the items to mark."));
export const fulfilLinesSchema = z.object({
  lines: z
    .array(lineId)
    .check(z.minLength(1, "Choose the items to mark."), z.maxLength(50, "Choose the items to mark.")),
  method: z.enum(["posted", "collected", "service done"], "Choose whether they were posted or handed over."),
});

export type FulfilLinesOutcome = { ok: true; title: string; description?: string } | { ok: false; error: string };

const DONE: Record<string, string> = {
  posted: "Marked posted",
  collected: "Marked handed over",
  "service done": "Marked done",
};

/** The order page's "fulfil-lines" form: validated here, then one marking of the lines chosen. */
export async function fulfilLinesFromForm(
  context: Pick<AppContext, "db" | "config" | "clock">,
  orderId: string,
  form: FormData,
): Promise<FulfilLinesOutcome & { status?: number }> {
  const parsed = fulfilLinesSchema.safeParse({
    lines: form.getAll("line").map(String),
    method: typeof form.get("method") === "string" ? String(form.get("method")) : "",
  });
  if (!parsed.success) return { ok: false, error: parsed.error.issues[0]?.message ?? "Choose the items to mark." };
  const { lines, method } = parsed.data;
  const outcome = await markLines(context, orderId, { lineIds: [...new Set(lines.map(Number))], method });
  if (outcome === "not-paid") return { ok: false, error: "Only a paid order can be marked fulfilled.", status: 409 };
  if (outcome === "unknown-line") return { ok: false, error: "Choose the items to mark." };
  if (outcome === "choose-method") return { ok: false, error: "Choose whether they were posted or handed over." };
  if (outcome === "already") return { ok: true, title: "Already marked" };
  return { ok: true, title: DONE[method]!, description: "The customer has been emailed." };
}
