// Every public page of app/routes.ts as a URL to load, for the page budget (issue 22: every public
// route, not a hand-picked few). Dynamic segments take real ids and slugs from the seed.
import type { RouteConfigEntry } from "@react-router/dev/routes";
import routes from "../../app/routes";

/**
 * URLs for the routes whose path has a parameter, or that need a query to show their page. The
 * ticket code is not in the seed (a code exists only once a ticket is paid for): an unknown code
 * draws the same route module ("Ticket not found"), so its first-load JavaScript is the same.
 */
const SAMPLES: Record<string, string> = {
  "product/:slug": "/product/candy-earrings",
  "tickets/:eventId": "/tickets/sip-style",
  "membership/:tier": "/membership/glow-bee-journey",
  "blog/:slug": "/blog/the-art-of-upcycling",
  "ticket/:code": "/ticket/SEED-NO-SUCH-CODE",
  // Likewise an order page exists only once an order is made: an unknown token draws "Order not found".
  "order/:token": "/order/SEED-NO-SUCH-ORDER-PAGE-TOKEN-00",
  checkout: "/checkout?type=product&item=Test%20Product&price=R5",
  // "Member? Sign in for your price" as a checkout links to it, told which checkout to return to.
  "checkout/sign-in": "/checkout/sign-in?return=%2Fcheckout%3Fbag%3D1",
  "order-confirmation": "/order-confirmation?status=success",
  // Signed out, a receipt answers the sign-in form; a member's own receipt draws the same route module.
  "account/receipts/:reference": "/account/receipts/HB-NO-SUCH",
  // An unsubscribe link exists only once a newsletter went: a link that does not verify draws the same module.
  "newsletter/unsubscribe/:token": "/newsletter/unsubscribe/s1.00000000000000000000000000000000",
  // A ticket option's waiting list (the first seeded option: "seats are on sale" unless it sold out), and an
  // unknown offer link, which draws the offer's route module ("This offer cannot be used").
  "waiting-list/:optionId": "/waiting-list/1",
  "waiting-list/offer/:token": "/waiting-list/offer/SEED-NO-SUCH-OFFER",
  "*": "/no-such-page",
};

/**
 * Not pages a visitor browses: the owner's side, and the hand-offs to a payment page (the simulator, refused
 * in production, and the form posted on to PayFast).
 */
const NOT_PUBLIC = /^(admin(\/|$)|api\/|payments\/(simulator|payfast)\/)/;

/** Resource routes (a .ts module: an API, a file, a feed) draw no page. */
const drawsAPage = (file: string) => file.endsWith(".tsx");

export function publicRouteUrls(config: RouteConfigEntry[] = routes): string[] {
  const urls: string[] = [];
  for (const entry of config) {
    const path = entry.index ? "" : (entry.path ?? "");
    if (NOT_PUBLIC.test(path) || !drawsAPage(entry.file)) continue;
    if (entry.children?.length)
      throw new Error(`route ${path} has child routes: list its pages in bench/lib/public-routes.ts`);
    const sample = SAMPLES[path];
    if (sample) urls.push(sample);
    else if (/[:*]/.test(path))
      throw new Error(
        `public route "${path}" has no sample URL: add one from the seed to SAMPLES in bench/lib/public-routes.ts`,
      );
    else urls.push(`/${path}`);
  }
  return urls;
}
