/** Which admission lane a request takes (server/admission.ts, decision 091). */
export type RequestClass = "till" | "write" | "bulk";

/** The payment pages and returns, webhooks, the owner's admin and the load balancer's health check. */
const TILL_PATHS = /^\/(?:payments|order-confirmation|api\/webhooks|api\/payfast|admin|healthz)(?:[/.]|$)/;
/** The checkout's form post, and the same post from the browser's router (`.data`). */
const CHECKOUT_PATHS = /^\/checkout(?:\.data)?$/;

/**
 * The visitor's bag (issue 39): never cached (it is theirs alone), and its loader touches the bag and
 * reads stock for every line, so like a write it waits on the database; in a render slot, a crowd of
 * bag views queued behind two slots past the 10 s limit under the soak (decision 126).
 */
const BAG_VIEW_PATHS = /^\/bag(?:\.data)?$/;
/** Beacons: a visitor's analytics, answered from memory in a batch; they wait behind the till. */
const BEACON_PATHS = /^\/api\/analytics$/;
const READS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Till: the sale and the owner. Write: anything else a visitor sends (a contact message, a member's
 * sign-in or renewal), which waits on the database, not the CPU, so it has slots of its own rather than
 * one of the two that pace renders. Bulk: anonymous reads and beacons.
 */
export function classifyRequest(method: string | undefined, url: string | undefined): RequestClass {
  const path = (url ?? "/").split("?", 1)[0]!;
  if (TILL_PATHS.test(path)) return "till";
  if (method === "POST" && CHECKOUT_PATHS.test(path)) return "till";
  if (method && !READS.has(method) && !BEACON_PATHS.test(path)) return "write";
  if (method === "GET" && BAG_VIEW_PATHS.test(path)) return "write";
  return "bulk";
}
