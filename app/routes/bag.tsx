import { useEffect } from "react";
import { data, Link } from "react-router";
import { trackEvent } from "~/analytics/track";
import { changeBag } from "~/bag/bag-action.server";
import { bagCookies, requestBagToken } from "~/bag/bag-cookie.server";
import { bagCountFromCookies } from "~/bag/bag-limits";
import { keepBagAlive, unitsInBag } from "~/bag/bag-store.server";
import { openBagWithRows, viewBag } from "~/bag/bag-view.server";
import { BagLineItem } from "~/components/bag/BagLineItem";
import { formatRand } from "~/lib/money";
import { seo, siteUrlFrom } from "~/lib/seo";
import type { Route } from "./+types/bag";

export async function loader({ request, context }: Route.LoaderArgs) {
  const now = context.clock.now();
  const token = requestBagToken(request);
  const bag = await openBagWithRows(context.db, token, now);
  const bagId = bag.bagId;
  // Touched while its lines are priced: neither waits for the other (decision 141).
  const [{ lines, subtotalCents, units }] = await Promise.all([
    viewBag(context.db, bag.lines, now, bag.rows),
    keepBagAlive(context.db, bag, now),
  ]);
  // The header's count comes from a cookie; set it right whenever it drifted (a bag that lapsed or was bought).
  const count = unitsInBag(lines);
  const headers = new Headers();
  if (bagCountFromCookies(request.headers.get("cookie") ?? "") !== count)
    for (const cookie of bagCookies(context, bagId ? token : null, count)) headers.append("Set-Cookie", cookie);
  return data({ lines, subtotalCents, units }, { headers });
}

export async function action({ request, context }: Route.ActionArgs) {
  return changeBag(request, context);
}

export default function BagPage({ loaderData, actionData }: Route.ComponentProps) {
  const { lines, subtotalCents, units } = loaderData;
  const marked = lines.filter((line) => line.problem).length;
  useEffect(() => {
    trackEvent("bag_viewed", { pagePath: "/bag", metadata: { units, amount: subtotalCents } });
    // Once per visit of the page, not after each change made on it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return (
    <section className="container-page py-10 sm:py-14">
      <h1 className="font-display text-4xl text-ink sm:text-5xl">Your Bag</h1>
      {actionData && !actionData.ok ? (
        <p role="alert" className="card mt-6 p-4 font-semibold text-accent">
          {actionData.message}
        </p>
      ) : null}
      {lines.length === 0 ? (
        <div className="card mt-8 max-w-2xl p-6" role="status">
          <p className="text-ink/85">Your bag is empty.</p>
          <div className="mt-6 flex flex-wrap gap-3">
            <Link to="/styled-collections" className="btn-primary">
              Browse Collections
            </Link>
            <Link to="/events" className="btn-outline">
              See Events
            </Link>
          </div>
        </div>
      ) : (
        <div className="mt-8 grid gap-8 lg:grid-cols-[1.6fr_1fr] lg:items-start">
          <ul className="space-y-4" aria-label="Lines in your bag">
            {lines.map((line) => (
              <BagLineItem key={line.id} line={line} />
            ))}
          </ul>
          <div className="card p-6">
            <h2 className="font-display text-2xl">Summary</h2>
            <p className="mt-4 flex justify-between gap-4 text-lg">
              <span>
                Subtotal ({units} {units === 1 ? "item" : "items"})
              </span>
              <span className="font-semibold" data-testid="bag-subtotal">
                {formatRand(subtotalCents)}
              </span>
            </p>
            {marked > 0 ? (
              // Checkout holds every line or none: a marked line is changed or removed first.
              <p className="mt-4 text-sm font-semibold" role="status">
                Remove or change the marked {marked === 1 ? "line" : "lines"} to check out.
              </p>
            ) : (
              <Link to="/checkout?bag=1" className="btn-primary mt-6 w-full">
                Checkout
              </Link>
            )}
          </div>
        </div>
      )}
    </section>
  );
}

export const meta: Route.MetaFunction = ({ matches }) =>
  seo({
    title: "Your Bag",
    description: "The pieces and tickets you chose, ready to check out.",
    path: "/bag",
    siteUrl: siteUrlFrom(matches),
    noindex: true,
  });
