// zod/mini, like every schema a route may also use in the browser (decision 060).
import * as z from "zod/mini";

/** The messages list's "Mark answered" / "Mark not answered" button: which message, and which way. */
export const answeredSchema = z.object({
  id: z.string().check(z.regex(/^[1-9]\d{0,9}$/, "That message does not exist. Reload the page and try again.")),
  answered: z.enum(["yes", "no"], "Choose answered or not answered."),
});
