/** How an order was fulfilled: the choices on the order page, and the words of the buyer's email. */
export const FULFILMENT_METHODS = [
  { value: "posted", label: "Posted" },
  { value: "collected", label: "Collected" },
  { value: "service done", label: "Service done" },
] as const;
export type FulfilmentMethod = (typeof FULFILMENT_METHODS)[number]["value"];
