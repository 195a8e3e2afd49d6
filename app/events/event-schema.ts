// zod/mini, like every schema a route may also use in the browser (decision 060).
import * as z from "zod/mini";
import { parseRandToCents } from "~/lib/money";
import { confirmedCentsField, randField } from "~/lib/rand-field";
import { photoAltSchema } from "~/media/photo-schema";

/** Ticket option rows the form offers: the stored ones plus one blank row, never more than this. */
export const MAX_TICKET_OPTIONS = 20;
/** A ticket option's price rules, for the schema and the form's preview alike. */
export const TICKET_PRICE_RULES = { label: "Price", minCents: 100, maxCents: 100_000_000 };
const MAX_CAPACITY = 100_000;

// South Africa has kept UTC+2 all year since 1944, so a wall-clock time there is one fixed offset away.
const SOUTH_AFRICA_OFFSET_MS = 2 * 60 * 60 * 1000;
const DATETIME_LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

/** "2025-10-10T10:00" (a datetime-local value, read as South African time) -> the instant; null if not a real time. */
export function parseSouthAfricanDateTime(value: string): Date | null {
  const m = DATETIME_LOCAL.exec(value.trim());
  if (!m) return null;
  const [year, month, day, hour, minute] = m.slice(1).map(Number) as [number, number, number, number, number];
  if (year < 2000 || year > 2100 || hour > 23 || minute > 59) return null;
  const utc = Date.UTC(year, month - 1, day, hour, minute);
  const back = new Date(utc);
  // 2025-02-30 rolls over to March: refuse it rather than store another day.
  if (back.getUTCFullYear() !== year || back.getUTCMonth() !== month - 1 || back.getUTCDate() !== day) return null;
  return new Date(utc - SOUTH_AFRICA_OFFSET_MS);
}

/** The instant as a datetime-local value in South African time, for the form's inputs. */
export function toSouthAfricanDateTimeLocal(instant: Date | null): string {
  if (!instant) return "";
  return new Date(instant.getTime() + SOUTH_AFRICA_OFFSET_MS).toISOString().slice(0, 16);
}

/** Control characters (other than line breaks and tabs in longer texts) are never part of a real answer; PostgreSQL refuses NUL. */
const hasControlCharacter = (value: string, multiline: boolean) =>
  [...value].some((ch) => {
    const code = ch.charCodeAt(0);
    return (code < 32 && !(multiline && (ch === "\n" || ch === "\r" || ch === "\t"))) || code === 127;
  });

const text = (label: string, max: number, multiline = false) =>
  z.string().check(
    z.trim(),
    z.minLength(1, `${label} is required`),
    z.maxLength(max, `${label} must be at most ${max} characters.`),
    z.refine((v) => !hasControlCharacter(v, multiline), `${label} contains characters we cannot store.`),
  );

const dateTime = (label: string) =>
  z.string().check(
    z.trim(),
    z.refine(
      (v) => v === "" || parseSouthAfricanDateTime(v) !== null,
      `${label} must be a date and time, e.g. 2025-10-10 10:00.`,
    ),
  );

/** One ticket option row: the stored option's id (empty for a new row) and its fields as typed. */
export const ticketOptionSchema = z.object({
  id: z
    .string()
    .check(
      z.refine((v) => v === "" || /^[1-9]\d{0,8}$/.test(v), "This ticket option no longer exists. Reload the page."),
    ),
  type: text("Ticket type", 80),
  price: randField(TICKET_PRICE_RULES),
  /** The cents of a tenfold price change the owner confirmed by saving again. */
  confirmPrice: confirmedCentsField,
  capacity: z.string().check(
    z.trim(),
    z.refine(
      (v) => v === "" || (/^\d{1,6}$/.test(v) && Number(v) >= 1 && Number(v) <= MAX_CAPACITY),
      `Capacity must be a whole number from 1 to ${MAX_CAPACITY}, or empty for no limit.`,
    ),
  ),
  from: dateTime("On sale from"),
  until: dateTime("On sale until"),
});

/** The event form: the admin's one schema for creating and editing an event and its ticket options. */
export const eventSchema = z
  .object({
    title: text("Title", 120),
    starts: dateTime("Starts"),
    ends: dateTime("Ends"),
    location: text("Location", 200),
    focus: text("Focus", 300),
    description: text("Description", 5000, true),
    includes: z.string().check(
      z.trim(),
      z.maxLength(3000, "What's included must be at most 3000 characters."),
      z.refine((v) => !hasControlCharacter(v, true), "What's included contains characters we cannot store."),
    ),
    photos: z.array(photoAltSchema).check(z.maxLength(12, "An event can have at most 12 photos.")),
    options: z
      .array(ticketOptionSchema)
      .check(z.maxLength(MAX_TICKET_OPTIONS, `An event can have at most ${MAX_TICKET_OPTIONS} ticket options.`)),
    /** Ids of stored options whose Remove box is ticked. */
    remove: z.array(
      z.string().check(z.regex(/^[1-9]\d{0,8}$/, "This ticket option no longer exists. Reload the page.")),
    ),
  })
  .check(
    z.superRefine((e, ctx) => {
      const starts = parseSouthAfricanDateTime(e.starts);
      const ends = parseSouthAfricanDateTime(e.ends);
      if (e.ends !== "" && e.starts === "")
        ctx.addIssue({ code: "custom", message: "Enter Starts too, or leave Ends empty.", path: ["starts"] });
      if (starts && ends && ends.getTime() <= starts.getTime())
        ctx.addIssue({ code: "custom", message: "Ends must be after Starts.", path: ["ends"] });
      const seen = new Set<string>();
      e.options.forEach((o, i) => {
        const type = o.type.trim().toLowerCase();
        // Checkout finds a ticket by "{event title} - {ticket type}", so two options may not share one.
        if (type && seen.has(type))
          ctx.addIssue({
            code: "custom",
            message: "Another ticket option of this event has this Ticket type.",
            path: ["options", i, "type"],
          });
        seen.add(type);
        const from = parseSouthAfricanDateTime(o.from);
        const until = parseSouthAfricanDateTime(o.until);
        if (from && until && until.getTime() <= from.getTime()) {
          ctx.addIssue({
            code: "custom",
            message: "On sale until must be after On sale from.",
            path: ["options", i, "until"],
          });
        } else if (until && ends && until.getTime() > ends.getTime()) {
          ctx.addIssue({
            code: "custom",
            message: "On sale until can't be after the event Ends.",
            path: ["options", i, "until"],
          });
        }
      });
    }),
  );

export type EventInput = z.infer<typeof eventSchema>;
export type TicketOptionInput = z.infer<typeof ticketOptionSchema>;

export const EVENT_TEXT_FIELDS = ["title", "starts", "ends", "location", "focus", "description", "includes"] as const;
export const OPTION_FIELDS = ["id", "type", "price", "confirmPrice", "capacity", "from", "until"] as const;

/** One option row of the form as typed, with its Remove box. */
export type OptionRow = Record<(typeof OPTION_FIELDS)[number], string> & { remove: boolean };

/**
 * The repeated option fields (`option.0.type`, `option.0.price`, ...) in row order. A row with no id
 * and nothing typed is the blank "add an option" row and is left out.
 */
export function readOptionRows(form: { get(name: string): unknown }): OptionRow[] {
  const rows: OptionRow[] = [];
  for (let i = 0; i <= MAX_TICKET_OPTIONS; i++) {
    const row = Object.fromEntries(
      OPTION_FIELDS.map((f) => {
        const v = form.get(`option.${i}.${f}`);
        return [f, typeof v === "string" ? v : ""];
      }),
    ) as unknown as OptionRow;
    row.remove = form.get(`option.${i}.remove`) === "on";
    if (OPTION_FIELDS.every((f) => row[f].trim() === "")) continue;
    rows.push(row);
  }
  return rows;
}

/**
 * The schema's input from the option rows: kept and new rows as `options`, ticked stored ones as
 * `remove`; `rowOf[k]` is the form row of `options[k]`, so a message goes back beside its field.
 */
export function splitOptionRows(rows: OptionRow[]) {
  const options: Omit<OptionRow, "remove">[] = [];
  const rowOf: number[] = [];
  const remove: string[] = [];
  rows.forEach((row, index) => {
    const { remove: ticked, ...fields } = row;
    if (ticked && fields.id !== "") remove.push(fields.id);
    else {
      options.push(fields);
      rowOf.push(index);
    }
  });
  return { options, remove, rowOf };
}

/** Lines of a textarea, trimmed, empty ones dropped: "What's included" holds one item a line. */
export const linesOf = (value: string) =>
  value
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);

export const priceCentsOf = (price: string) => parseRandToCents(price) ?? 0;
