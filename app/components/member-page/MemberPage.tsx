import { Form, Link, useNavigation } from "react-router";
import { AccountField, AccountCard, fieldClass, labelClass, Notice } from "~/components/account/account-ui";
import { AccountOrders } from "~/components/account/AccountOrders";
import { AccountNewsForm } from "~/components/newsletters/AccountNewsForm";
import { dayMonthYear } from "~/lib/dates-in-words";
import type { AccountActionResult } from "~/memberships/account-actions.server";
import { ACCOUNT_LIMITS } from "~/memberships/account-schema";
import type { AccountView } from "~/memberships/account.server";
import type { AccountNewsResult } from "~/newsletters/account-news.server";
import type { NewsStatus } from "~/newsletters/subscriptions.server";
import type { AccountOrder } from "~/orders/account-orders.server";

function resultFor(result: AccountActionResult | AccountNewsResult | undefined, intent: string) {
  if (!result || result.intent !== intent || !result.message) return null;
  return <Notice tone={result.ok ? "info" : "problem"}>{result.message}</Notice>;
}

/** A signed-in member's page: her plan, renewal and cancelling, her details, her news, her orders. */
export function MemberPage({
  account,
  news,
  perks,
  result,
  shopOrders,
}: {
  shopOrders: AccountOrder[];
  account: AccountView;
  news: NewsStatus;
  /** The plan's perks in words, or why the member has none now. */
  perks: string;
  result: AccountActionResult | AccountNewsResult | undefined;
}) {
  const navigation = useNavigation();
  const busy = (intent: string) => navigation.state !== "idle" && navigation.formData?.get("intent") === intent;
  const cancelled = account.status === "cancelled";
  const detailErrors = result?.intent === "details" && !result.ok ? result.errors : undefined;
  const detailValues = result?.intent === "details" && !result.ok ? result.values : undefined;
  return (
    <AccountCard title={`Hello, ${account.name}`} wide>
      <p className="mt-2 text-ink-soft">Signed in as {account.email}</p>

      <section aria-labelledby="plan-heading" className="mt-8">
        <h2 id="plan-heading" className="text-xl font-semibold">
          Your plan
        </h2>
        <dl className="mt-3 grid gap-x-6 gap-y-2 sm:grid-cols-[auto_1fr]">
          <dt className="font-semibold">Plan</dt>
          <dd>{account.tierName}</dd>
          <dt className="font-semibold">Status</dt>
          <dd>
            <strong>{account.words.label}.</strong> {account.words.sentence}
          </dd>
          <dt className="font-semibold">Member perks</dt>
          <dd data-testid="account-perks">{perks}</dd>
          <dt className="font-semibold">{cancelled ? "Ends on" : "Paid until"}</dt>
          <dd data-testid="account-paid-until">{account.paidUntil}</dd>
          {cancelled ? null : (
            <>
              <dt className="font-semibold">How you pay</dt>
              <dd data-testid="account-pays">
                {account.pays.words}
                {account.pays.cardFailed
                  ? ": your last card charge did not go through. Renew below to keep your place."
                  : ""}
              </dd>
            </>
          )}
          {cancelled ? null : (
            <>
              <dt className="font-semibold">Next renewal</dt>
              <dd>
                {account.renewal.tierName}
                {account.renewal.price ? `, ${account.renewal.price}` : ""}
                {account.planChanged ? " (your new plan starts then)" : ""}
              </dd>
            </>
          )}
        </dl>
      </section>

      <section aria-labelledby="renew-heading" className="mt-8 grid gap-3">
        <h2 id="renew-heading" className="text-xl font-semibold">
          Renew
        </h2>
        <p className="text-ink/85">
          Pay for your next month now: it starts when your current one ends, so no days are lost.
        </p>
        {resultFor(result, "renew")}
        <Form method="post">
          <button type="submit" name="intent" value="renew" className="btn-primary" disabled={busy("renew")}>
            {busy("renew") ? "Opening payment..." : "Renew now"}
          </button>
        </Form>
      </section>

      {cancelled ? null : (
        <section aria-labelledby="change-heading" className="mt-8 grid gap-3">
          <h2 id="change-heading" className="text-xl font-semibold">
            Change plan
          </h2>
          <p className="text-ink/85">
            A new plan takes effect at your next renewal; until then you keep your current one.
          </p>
          {resultFor(result, "change-plan")}
          <Form method="post" className="grid gap-3 sm:grid-cols-[1fr_auto] sm:items-end">
            <div>
              <label htmlFor="next-tier" className={labelClass}>
                Plan from your next renewal
              </label>
              <select id="next-tier" name="tier" defaultValue={account.renewalTierSlug} className={fieldClass}>
                {account.tiers.map((t) => (
                  <option key={t.slug} value={t.slug}>
                    {t.name}: {t.price}
                  </option>
                ))}
              </select>
            </div>
            <button
              type="submit"
              name="intent"
              value="change-plan"
              className="btn-outline"
              disabled={busy("change-plan")}
            >
              Change plan
            </button>
          </Form>
        </section>
      )}

      <section aria-labelledby="payments-heading" className="mt-8">
        <h2 id="payments-heading" className="text-xl font-semibold">
          Past payments
        </h2>
        {account.payments.length === 0 ? (
          <p className="mt-2 text-ink/85">No payments yet.</p>
        ) : (
          <ul className="mt-3 divide-y divide-ink/10">
            {account.payments.map((p) => (
              <li key={p.id} className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 py-3">
                <span>
                  <span className="font-semibold">{p.tierName}</span>, {dayMonthYear(p.startsOn)} to{" "}
                  {dayMonthYear(p.endsOn)}
                  {p.kind === "gift" ? (
                    <span className="text-ink-soft"> (a gift from the shop{p.note ? `: ${p.note}` : ""})</span>
                  ) : null}
                </span>
                <span className="flex items-baseline gap-4">
                  <span>{p.amount}</span>
                  {p.reference ? (
                    <Link
                      to={`/account/receipts/${encodeURIComponent(p.reference)}`}
                      className="link inline-flex min-h-11 items-center"
                    >
                      Receipt<span className="sr-only"> for {p.reference}</span>
                    </Link>
                  ) : null}
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>

      <AccountOrders orders={shopOrders} />

      <section aria-labelledby="details-heading" className="mt-8 grid gap-3">
        <h2 id="details-heading" className="text-xl font-semibold">
          Your details
        </h2>
        {resultFor(result, "details")}
        <Form method="post" noValidate className="grid gap-4" aria-labelledby="details-heading">
          <AccountField
            id="member-name"
            name="name"
            label="Name"
            autoComplete="name"
            maxLength={ACCOUNT_LIMITS.name}
            defaultValue={detailValues?.name ?? account.name}
            error={detailErrors?.name}
          />
          <AccountField
            id="member-phone"
            name="phone"
            label="Phone"
            type="tel"
            autoComplete="tel"
            maxLength={ACCOUNT_LIMITS.phone}
            defaultValue={detailValues?.phone ?? account.phone}
            error={detailErrors?.phone}
          />
          <button
            type="submit"
            name="intent"
            value="details"
            className="btn-outline sm:justify-self-start"
            disabled={busy("details")}
          >
            Save my details
          </button>
        </Form>
      </section>

      <AccountNewsForm subscribed={news === "subscribed"} result={result} busy={busy("news")} />

      <section aria-labelledby="cancel-heading" className="mt-8 grid gap-3">
        <h2 id="cancel-heading" className="text-xl font-semibold">
          {cancelled ? "Keep your membership" : "Cancel membership"}
        </h2>
        {resultFor(result, "cancel")}
        {resultFor(result, "resume")}
        {cancelled ? (
          <Form method="post" className="grid gap-3">
            <p className="text-ink/85">
              Changed your mind? Your membership continues as before, with a reminder before it is due.
            </p>
            <button
              type="submit"
              name="intent"
              value="resume"
              className="btn-primary sm:justify-self-start"
              disabled={busy("resume")}
            >
              Keep my membership
            </button>
          </Form>
        ) : (
          <details className="rounded-2xl border border-ink/15 p-4">
            <summary className="min-h-11 cursor-pointer py-2 font-semibold">Cancel my membership</summary>
            <p className="mt-2 text-ink/85">
              You keep your membership until {account.paidUntil}, and{" "}
              {account.pays.byCard ? "your card is not charged again" : "we stop asking you to renew"}. You can change
              your mind until then.
            </p>
            <Form method="post" className="mt-4">
              <button
                type="submit"
                name="intent"
                value="cancel"
                className="min-h-11 rounded-full bg-red-800 px-5 font-semibold text-white"
                disabled={busy("cancel")}
              >
                Yes, cancel my membership
              </button>
            </Form>
          </details>
        )}
      </section>

      <section aria-labelledby="data-heading" className="mt-8 grid gap-3">
        <h2 id="data-heading" className="text-xl font-semibold">
          Your data
        </h2>
        <p className="text-ink/85">
          Everything we hold under your email address: orders, tickets, messages and membership.
        </p>
        <div className="flex flex-wrap gap-3">
          <a href="/your-data/download/json" className="btn-outline" download>
            Download my data
          </a>
          <Link to="/your-data" className="btn-outline">
            See all of it
          </Link>
        </div>
      </section>

      <Form method="post" action="/account/sign-out" className="mt-10 border-t border-ink/10 pt-6">
        <button type="submit" className="btn-outline">
          Sign out
        </button>
      </Form>
    </AccountCard>
  );
}
