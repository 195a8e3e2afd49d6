/**
 * The owner's "Sizes and colours" form (issue 44): option names, their values typed with commas, and a grid row
 * per combination. Read into what `saveProductOptions` stores, or into a message per field; nothing is saved
 * while any field is wrong. Rows are matched to the grid she saw by their values, so retyping the values adds and
 * removes rows without losing what the others say.
 */
import { checkRand } from "~/lib/money";
import { isOneLine } from "~/lib/storable-text";
import { combinations, MAX_OPTION_TEXT, readOptionValues, type ProductOption } from "./product-options";
import { PRODUCT_PRICE_RULES } from "./product-schema";
import type { GridRow } from "./product-variants.server";

export const MAX_ROW_STOCK = 100_000;

/** What the form posts: repeated row fields in the grid's order, the ticked rows by their position. */
export interface PostedOptions {
  name1: string;
  values1: string;
  name2: string;
  values2: string;
  rows: { value1: string; value2: string; stock: string; price: string; photo: string }[];
  on: Set<number>;
  /** Whether the grid was on the page (the first save of new values has none yet). */
  hadGrid: boolean;
}

export function postedOptions(form: FormData): PostedOptions {
  const text = (name: string) => {
    const v = form.get(name);
    return typeof v === "string" ? v : "";
  };
  const all = (name: string) => form.getAll(name).map((v) => (typeof v === "string" ? v : ""));
  const [v1, v2, stock, price, photo] = ["rowValue1", "rowValue2", "rowStock", "rowPrice", "rowPhoto"].map(all);
  return {
    name1: text("name1"),
    values1: text("values1"),
    name2: text("name2"),
    values2: text("values2"),
    rows: v1.map((value1, i) => ({
      value1,
      value2: v2[i] ?? "",
      stock: stock[i] ?? "",
      price: price[i] ?? "",
      photo: photo[i] ?? "",
    })),
    on: new Set(all("rowOn").map(Number)),
    hadGrid: text("hadGrid") === "1",
  };
}

export type ReadOptions =
  { ok: true; options: ProductOption[]; rows: GridRow[] } | { ok: false; fieldErrors: Record<string, string> };

/**
 * The form, read. `productStock` is the product's own stock before it had options: it becomes the first row's, and
 * a product whose stock is counted gives new rows 0 (never "not counted" by accident).
 */
export function readOptionsForm(posted: PostedOptions, productStock: number | null, hadOptions: boolean): ReadOptions {
  const fieldErrors: Record<string, string> = {};
  const options: ProductOption[] = [];
  for (const n of [1, 2] as const) {
    const name = (n === 1 ? posted.name1 : posted.name2).trim();
    const typed = n === 1 ? posted.values1 : posted.values2;
    if (!name && !typed.trim()) continue;
    if (!name) fieldErrors[`name${n}`] = "Name this option, e.g. Size or Colour.";
    else if (name.length > MAX_OPTION_TEXT) fieldErrors[`name${n}`] = `At most ${MAX_OPTION_TEXT} characters.`;
    else if (!isOneLine(name)) fieldErrors[`name${n}`] = "One line of text, please.";
    const values = readOptionValues(typed);
    if (!values.ok) fieldErrors[`values${n}`] = values.error;
    else if (values.values.some((v) => !isOneLine(v))) fieldErrors[`values${n}`] = "Values are one line of text.";
    if (name && values.ok) options.push({ name, values: values.values });
  }
  if (!posted.name1.trim() && !posted.values1.trim() && (posted.name2.trim() || posted.values2.trim()))
    fieldErrors.name1 = "Fill in the first option before the second.";
  if (options.length === 2 && options[0].name.toLowerCase() === options[1].name.toLowerCase())
    fieldErrors.name2 = "The two options need different names.";
  if (Object.keys(fieldErrors).length) return { ok: false, fieldErrors };

  const postedByValues = new Map(posted.rows.map((r, i) => [`${r.value1}\u0000${r.value2}`, { ...r, index: i }]));
  const rows: GridRow[] = [];
  for (const [i, combination] of combinations(options).entries()) {
    const typed = postedByValues.get(`${combination.value1}\u0000${combination.value2}`);
    if (!typed) {
      const first = i === 0 && !hadOptions;
      rows.push({
        ...combination,
        stockQuantity: first ? productStock : productStock === null ? null : 0,
        priceCents: null,
        image: null,
        enabled: true,
      });
      continue;
    }
    const stock = typed.stock.trim();
    let stockQuantity: number | null = null;
    if (stock !== "") {
      if (!/^\d{1,6}$/.test(stock) || Number(stock) > MAX_ROW_STOCK)
        fieldErrors[`row-${i}-stock`] = `Stock is a whole number from 0 to ${MAX_ROW_STOCK}, or empty.`;
      else stockQuantity = Number(stock);
    }
    let priceCents: number | null = null;
    if (typed.price.trim() !== "") {
      const price = checkRand(typed.price, PRODUCT_PRICE_RULES);
      if (!price.ok) fieldErrors[`row-${i}-price`] = price.message;
      else priceCents = price.cents;
    }
    rows.push({
      ...combination,
      stockQuantity,
      priceCents,
      image: typed.photo.trim() || null,
      // A row the grid showed is on when its box was ticked; a row new to the grid starts on.
      enabled: posted.hadGrid ? posted.on.has(typed.index) : true,
    });
  }
  if (Object.keys(fieldErrors).length) return { ok: false, fieldErrors };
  return { ok: true, options, rows };
}
