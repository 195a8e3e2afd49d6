import { data, redirect } from "react-router";
import { isSameOriginRequest } from "~/auth/cookies.server";
import type { AppContext } from "~/context.server";
import { textFields, validateForm } from "~/lib/form";
import { findSellableByRef } from "~/orders/sellable.server";
import { BAG_FIELDS, bagActionSchema } from "./bag-schema";
import { MAX_BAG_LINES, MAX_LINE_QUANTITY, type BagActionResult } from "./bag-limits";
import { bagCookies, newBagToken, requestBagToken } from "./bag-cookie.server";
import {
  createBagWithLine,
  lineKeyOf,
  openBag,
  putLine,
  refOfLine,
  removeLine,
  setLineQuantity,
  keepBagAlive,
  unitsInBag,
} from "./bag-store.server";

type BagContext = Pick<AppContext, "db" | "config" | "clock">;

/**
 * The /bag action: add, change a quantity, remove. A form sent without JavaScript is answered by a
 * redirect to /bag (or, when refused, by /bag with the reason); a fetcher's form (`inPlace`) gets the
 * result to show where it is. A refusal changes nothing and answers 4xx.
 */
export async function changeBag(request: Request, context: BagContext) {
  if (!isSameOriginRequest(request, context)) return refuse("Please try again from the shop's own page.", 403);
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return refuse("The form could not be read. Please try again.", 400);
  }
  const fields = textFields(form, BAG_FIELDS);
  const inPlace = fields.inPlace === "1";
  const validated = validateForm(bagActionSchema, fields);
  if (!validated.ok) return refuse(Object.values(validated.fieldErrors)[0] ?? "Choose an action.", 400);
  const action = validated.data;
  const now = context.clock.now();
  let token = requestBagToken(request);
  // The bag and, for an add, the item asked for: read together, one wait (decision 141).
  const asked =
    action.intent === "add"
      ? { kind: action.kind, id: action.id, choice: { option1: action.option1, option2: action.option2 } }
      : undefined;
  const [bag, foundAsked] = await Promise.all([
    openBag(context.db, token, now),
    asked ? findSellableByRef(context.db, asked, now) : undefined,
  ]);
  const bagId = bag.bagId;
  const lines = bag.lines;
  const count = unitsInBag(lines);

  if (action.intent === "add") {
    const found = foundAsked!;
    if (!found.ok) return refuse(found.reason, 409, count);
    // The row the choice named is what the bag keeps: a product's size is a line of its own.
    const { variantId } = found.item.line;
    const ref = { kind: action.kind, id: action.id, ...(variantId && { choice: { variantId } }) };
    const existing = lines.find((l) => l.lineKey === lineKeyOf(ref));
    if (!existing && lines.length >= MAX_BAG_LINES)
      return refuse(`A bag holds at most ${MAX_BAG_LINES} different things.`, 409, count);
    const quantity = (existing?.quantity ?? 0) + action.quantity;
    const most = Math.min(MAX_LINE_QUANTITY, found.item.available ?? MAX_LINE_QUANTITY);
    if (quantity > most) {
      const have = existing ? ` (${existing.quantity} already in your bag)` : "";
      return refuse(`${found.item.displayName}: at most ${most} can go in your bag${have}.`, 409, count);
    }
    if (!bagId || !token) {
      token = newBagToken();
      await createBagWithLine(context.db, token, ref, quantity, now);
    } else await Promise.all([keepBagAlive(context.db, bag, now), putLine(context.db, bagId, ref, quantity)]);
    return done(context, token, count + action.quantity, `${found.item.displayName} is in your bag.`, inPlace);
  }

  const line = lines.find((l) => l.id === action.line);
  if (!bagId || !token || !line) return refuse("That line is no longer in your bag.", 404, count);
  await keepBagAlive(context.db, bag, now);
  if (action.intent === "remove") {
    await removeLine(context.db, bagId, line.id);
    return done(context, token, count - line.quantity, "Removed from your bag.", inPlace);
  }
  const found = await findSellableByRef(context.db, refOfLine(line), now);
  if (!found.ok) return refuse(`${found.reason} Please remove it from your bag.`, 409, count);
  const left = found.item.available ?? null;
  if (left !== null && action.quantity > left)
    return refuse(`${found.item.displayName}: only ${left} left.`, 409, count);
  await setLineQuantity(context.db, bagId, line.id, action.quantity);
  return done(context, token, count - line.quantity + action.quantity, "Your bag is updated.", inPlace);
}

/** A refusal: the same answer for a fetcher and for /bag drawn without JavaScript. */
function refuse(message: string, status: number, count = 0) {
  return data<BagActionResult>({ ok: false, message, count }, { status });
}

function done(context: BagContext, token: string, count: number, message: string, inPlace: boolean) {
  const headers = new Headers();
  for (const cookie of bagCookies(context, token, count)) headers.append("Set-Cookie", cookie);
  if (!inPlace) return redirect("/bag", { headers });
  return data<BagActionResult>({ ok: true, message, count }, { headers });
}
