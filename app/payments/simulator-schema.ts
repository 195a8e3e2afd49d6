// zod/mini, like every schema a route may also use in the browser (decision 060).
import * as z from "zod/mini";

/**
 * The payment simulator's buttons, as the provider's hosted page offers them: Pay, Decline and Cancel;
 * for a membership also Subscribe, then a card subscription's next charge, a declined charge and a
 * cancel at the provider.
 */
export const simulatorSchema = z.object({
  intent: z.enum(["pay", "decline", "cancel", "subscribe", "charge", "fail-next", "provider-cancel"], {
    error: "Choose Pay, Decline or Cancel.",
  }),
});
