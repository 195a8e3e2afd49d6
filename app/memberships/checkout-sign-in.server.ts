import type { AppContext } from "~/context.server";
import { askForSignInLink, type AccountActionResult } from "./account-actions.server";
import { checkoutReturnPath, NO_CHECKOUT_TO_RETURN_TO } from "./checkout-sign-in";

/**
 * Emails the member's sign-in link (the same rules, limits and one answer for every address as /account's
 * form) whose link returns to the checkout she came from. A return path that is not a checkout is refused
 * and nothing is sent.
 */
export async function askForCheckoutSignInLink(
  context: Pick<AppContext, "db" | "config" | "clock" | "clientIp">,
  form: FormData,
): Promise<{ status: number; result: AccountActionResult; returnTo: string | null }> {
  const returnTo = checkoutReturnPath(form.get("returnTo"));
  if (!returnTo)
    return {
      status: 400,
      returnTo,
      result: { intent: "request-link", ok: false, message: NO_CHECKOUT_TO_RETURN_TO },
    };
  return { ...(await askForSignInLink(context, form, returnTo)), returnTo };
}
