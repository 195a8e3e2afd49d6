// zod/mini, like every schema a route may also use in the browser (decision 060).
import * as z from "zod/mini";
import { isOneLine } from "~/lib/storable-text";

/** The most seats one person may wait for on one list (issue 39). */
export const MAX_WAITLIST_SEATS = 4;

/** In the order the form shows them, so the first message is the first field to correct. */
export const WAITLIST_FIELDS = ["name", "email", "seats"] as const;

/** The join form: the same schema checks it in the browser and in the action. */
export const joinWaitlistSchema = z.object({
  email: z.string().check(
    z.trim(),
    z.minLength(1, "Email is required."),
    z.maxLength(254, "Email must be at most 254 characters."),
    // The browser's own rule for type="email", so the server never refuses what the form accepted.
    z.regex(z.regexes.html5Email, "Email must be an email address, e.g. thandi@example.co.za."),
  ),
  name: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, "Name is required."),
      z.maxLength(100, "Name must be at most 100 characters."),
      z.refine(isOneLine, "Name must be one line of text."),
    ),
  seats: z.pipe(
    z.string().check(z.regex(/^[1-9]$/, `Seats must be a number from 1 to ${MAX_WAITLIST_SEATS}.`)),
    z.pipe(
      z.transform((v: string) => Number(v)),
      z.number().check(z.maximum(MAX_WAITLIST_SEATS, `Seats must be a number from 1 to ${MAX_WAITLIST_SEATS}.`)),
    ),
  ),
});

export type JoinWaitlistInput = z.infer<typeof joinWaitlistSchema>;
