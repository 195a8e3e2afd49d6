import { safeReturnPath } from "~/lib/return-path";

/** The page that asks for a member's sign-in link from a checkout (issue 40: "Member? Sign in for your price"). */
export const CHECKOUT_SIGN_IN_PATH = "/checkout/sign-in";

export const NO_CHECKOUT_TO_RETURN_TO =
  "We could not tell which checkout to bring you back to. Please go back to your checkout and choose " +
  "“Member? Sign in for your price” again.";

/** A checkout's own address (one item or the bag), or null: the link only ever returns to a checkout. */
export function checkoutReturnPath(value: unknown): string | null {
  const path = safeReturnPath(value);
  return path === "/checkout" || path?.startsWith("/checkout?") ? path : null;
}

/** Where the checkout's "Member? Sign in for your price" goes: the sign-in page, told which checkout to return to. */
export function checkoutSignInHref(requestUrl: string): string {
  const url = new URL(requestUrl);
  url.searchParams.delete("retry");
  const search = url.searchParams.toString();
  return `${CHECKOUT_SIGN_IN_PATH}?${new URLSearchParams({ return: `/checkout${search ? `?${search}` : ""}` })}`;
}

/** What a tier's perks can lower (app/pricing/price-lines.ts): products, tickets and workshops; never a service or plan. */
export const perkCouldLower = (orderType: string) =>
  orderType === "product" || orderType === "ticket" || orderType === "workshop";
