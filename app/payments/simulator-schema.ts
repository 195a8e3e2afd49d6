// zod/mini, like every schema a route may also use in the browser (decision 060).
import * as z from "zod/mini";

/** The payment simulator's three buttons, as the provider's hosted page offers them. */
export const simulatorSchema = z.object({
  intent: z.enum(["pay", "decline", "cancel"], { error: "Choose Pay, Decline or Cancel." }),
});
