import type { ShouldRevalidateFunctionArgs } from "react-router";

/**
 * Sending a contact message changes nothing the page shows, so the page's data is not fetched again
 * afterwards: one request per message, and a send that fails on the network cannot turn into an
 * error page while reloading data that did not change.
 */
export function skipAfterContactSend({ formAction, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs): boolean {
  if (formAction && new URL(formAction, "http://x").pathname === "/contact") return false;
  return defaultShouldRevalidate;
}
