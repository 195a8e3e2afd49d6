// zod/mini, like every schema a route may also use in the browser (decision 060).
import * as z from "zod/mini";

export const SESSION_FIELDS = ["date", "start", "end", "capacity"] as const;

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

/** One workshop session as the owner types it: a day, a start and end time in South African time, optional seats. */
export const sessionSchema = z
  .object({
    date: z.string().check(z.trim(), z.regex(DATE, "Choose a date.")),
    start: z.string().check(z.trim(), z.regex(TIME, "Give a start time like 10:00.")),
    end: z.string().check(z.trim(), z.regex(TIME, "Give an end time like 13:00.")),
    capacity: z.string().check(
      z.trim(),
      z.refine(
        (v) => v === "" || (/^\d{1,4}$/.test(v) && Number(v) >= 1 && Number(v) <= 500),
        "Seats must be a whole number from 1 to 500, or empty for the ticket's own.",
      ),
    ),
  })
  .check(
    z.refine((v) => !TIME.test(v.start) || !TIME.test(v.end) || v.end > v.start, {
      message: "The session must end after it starts.",
      path: ["end"],
    }),
    z.refine(
      (v) =>
        !DATE.test(v.date) ||
        (!Number.isNaN(new Date(`${v.date}T00:00:00Z`).getTime()) &&
          new Date(`${v.date}T00:00:00Z`).toISOString().slice(0, 10) === v.date),
      {
        message: "Choose a date that exists.",
        path: ["date"],
      },
    ),
  );

export type SessionInput = z.infer<typeof sessionSchema>;

/** The "Remove" button of one session: the id it carries, refused like a session removed meanwhile. */
export const sessionRemoveSchema = z.object({
  sessionId: z.string().check(
    z.refine((typed) => {
      const id = Number(typed);
      return Number.isSafeInteger(id) && id > 0;
    }, "That session no longer exists."),
  ),
});
