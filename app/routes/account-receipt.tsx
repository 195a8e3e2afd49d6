import { data, Link } from "react-router";
import { AccountCard, AccountProblem } from "~/components/account/account-ui";
import { site } from "~/content/site";
import { shopContact } from "~/email/shop-contact.server";
import { dayMonthYear } from "~/lib/dates-in-words";
import { seo, siteUrlFrom } from "~/lib/seo";
import { memberReceipt } from "~/memberships/account.server";
import { requireMemberId } from "~/memberships/member-session.server";
import { southAfricanDay } from "~/memberships/periods";
import type { Route } from "./+types/account-receipt";

const PRIVATE = { "Cache-Control": "private, no-store" };

const ORDER_STATUS_WORDS: Record<string, string> = {
  pending: "Waiting for payment",
  paid: "Paid",
  failed: "Payment failed",
  cancelled: "Cancelled",
  expired: "Expired (not paid)",
  refunded: "Refunded",
  partially_refunded: "Partly refunded",
};

/** A printable receipt for one of the signed-in member's own orders; any other reference is not found. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const memberId = await requireMemberId(request, context);
  const receipt = await memberReceipt(context.db, memberId, params.reference);
  if (!receipt) throw data({ notFound: true }, { status: 404, headers: PRIVATE });
  const paidAt = receipt.paidAt;
  return data(
    {
      ...receipt,
      date: dayMonthYear(southAfricanDay(paidAt)),
      statusWords: ORDER_STATUS_WORDS[receipt.status] ?? receipt.status,
      period: receipt.period
        ? `${dayMonthYear(receipt.period.startsOn)} to ${dayMonthYear(receipt.period.endsOn)}`
        : null,
      shop: await shopContact(context.db),
    },
    { headers: PRIVATE },
  );
}

export const headers: Route.HeadersFunction = () => PRIVATE;

export default function AccountReceipt({ loaderData: r }: Route.ComponentProps) {
  const rows: [string, string][] = [
    ["Reference", r.reference],
    ["Date", r.date],
    ["Member", `${r.customer} (${r.email})`],
    ["Item", r.item],
    ...(r.period ? ([["Period", r.period]] as [string, string][]) : []),
    ["Amount", r.amount],
    ...(r.refunded ? ([["Refunded", r.refunded]] as [string, string][]) : []),
    ["Status", r.statusWords],
  ];
  return (
    <AccountCard title="Receipt">
      <div className="mt-4 text-ink/85">
        <p className="font-semibold text-ink">{site.name}</p>
        <p>{r.shop.location}</p>
        <p>
          {r.shop.email} · {r.shop.phone}
        </p>
      </div>
      <dl className="mt-6 grid gap-x-6 gap-y-2 sm:grid-cols-[auto_1fr]">
        {rows.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="font-semibold">{label}</dt>
            <dd className="break-words">{value}</dd>
          </div>
        ))}
      </dl>
      <p className="mt-6 text-sm text-ink-soft">
        Prices are in South African rand. Keep this page for your records, or print it.
      </p>
      <p className="mt-6 print:hidden">
        <Link to="/account" className="btn-outline">
          Back to your membership
        </Link>
      </p>
    </AccountCard>
  );
}

export const meta: Route.MetaFunction = ({ data: r, matches, params }) =>
  seo({
    title: r ? `Receipt ${r.reference}` : "Receipt Not Found",
    description: "A receipt for your Honey Bee membership.",
    path: `/account/receipts/${params.reference}`,
    siteUrl: siteUrlFrom(matches),
    noindex: true,
  });

export function ErrorBoundary() {
  return (
    <AccountProblem
      title="Receipt not found"
      text="We could not find that receipt among your payments."
      linkLabel="Back to your membership"
    />
  );
}
