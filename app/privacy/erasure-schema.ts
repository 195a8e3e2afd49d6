// zod/mini, like every schema a page may also use in the browser (decision 060).
import * as z from "zod/mini";

/** "Delete my data": what happens to orders still open (the page asks only when there are some). */
export const erasureRequestSchema = z.object({
  openOrders: z.enum(["erase", "wait"], "Choose what happens to your open orders."),
});

/** The owner's form for a person who asked by phone: their address and the same choice. */
export const ownerErasureSchema = z.object({
  email: z.pipe(
    z
      .string()
      .check(
        z.trim(),
        z.minLength(1, "Enter the person's email address."),
        z.maxLength(254, "Email must be at most 254 characters."),
      ),
    z.email({ pattern: z.regexes.html5Email, error: "Enter a valid email address." }),
  ),
  openOrders: z.enum(["erase", "wait"], "Choose what happens to their open orders."),
});
