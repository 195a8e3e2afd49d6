import { data, Form, Link, redirect, useNavigation } from "react-router";
import { setToastCookie } from "~/admin/flash-toast.server";
import { formatDateTime } from "~/admin/format-date";
import { textFields, validateForm } from "~/lib/form";
import { mailtoHref } from "~/admin/mailto";
import { AdminNotFound } from "~/components/admin/ConfirmDelete";
import { AdminPageHeader, adminPageClass } from "~/components/admin/AdminShell";
import { TextField } from "~/components/admin/fields";
import { MemberStatusBadge } from "~/components/admin/MemberStatus";
import { dayMonthYear } from "~/lib/dates-in-words";
import { formatRand } from "~/lib/money";
import { seo, siteUrlFrom } from "~/lib/seo";
import { GIFT_NOTE_MAX, MEMBER_ACTION_FIELDS, memberActionSchema } from "~/memberships/gift-schema";
import { memberLinkSettings } from "~/memberships/member-links.server";
import { findMemberForAdmin, parseMemberId } from "~/memberships/members-admin.server";
import { cancelMembershipAndCard, howMemberPays } from "~/memberships/card-subscriptions.server";
import { paysInWords } from "~/memberships/pays-words";
import { pauseCardCharges, PAUSE_MONTHS, resumeCardCharges } from "~/memberships/card-pauses.server";
import { giftMonth, resendRenewalLink } from "~/memberships/members.server";
import type { Route } from "./+types/member";
import { telHref } from "~/lib/phone";

const notFound = () => data({ error: "Member not found" }, { status: 404 });

function memberIdFrom(params: { id?: string }): number {
  const id = parseMemberId(params.id);
  if (id === null) throw notFound();
  return id;
}

const iso = (at: Date | string | null | undefined) => (at ? new Date(at).toISOString() : null);

export async function loader({ params, context }: Route.LoaderArgs) {
  const found = await findMemberForAdmin(context.db, memberIdFrom(params));
  if (!found) throw notFound();
  const { member } = found;
  const pays = await howMemberPays(context.db, member.id);
  return {
    member: {
      id: member.id,
      name: member.name,
      email: member.email,
      phone: member.phone,
      tierName: found.tierName,
      tierPriceCents: found.tierPriceCents,
      nextTierName: found.nextTierName,
      status: member.status,
      paidUntil: member.paidUntil,
      joinedAt: iso(member.joinedAt)!,
      cancelledAt: iso(member.cancelledAt),
      pays: paysInWords(pays),
      byCard: pays.kind === "card",
      pausedUntil: pays.kind === "card" ? pays.pausedUntil : null,
    },
    pauseMonths: [...PAUSE_MONTHS],
    payments: found.payments.map((p) => ({
      id: p.id,
      kind: p.kind,
      orderId: p.orderId,
      reference: p.reference,
      tierName: p.tierName ?? p.tierSlug,
      amountCents: p.amountCents,
      startsOn: p.startsOn,
      endsOn: p.endsOn,
      note: p.note,
      createdAt: iso(p.createdAt)!,
    })),
    emails: found.emails.map((e) => ({ ...e, createdAt: iso(e.createdAt)!, sentAt: iso(e.sentAt) })),
  };
}

interface ActionAnswer {
  intent: string;
  fieldErrors: Record<string, string>;
  values: Record<string, string>;
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const id = memberIdFrom(params);
  const values = textFields(await request.formData(), MEMBER_ACTION_FIELDS);
  const checked = validateForm(memberActionSchema, values);
  const found = await findMemberForAdmin(context.db, id);
  if (!found) throw notFound();
  const now = context.clock.now();
  const back = (title: string, description?: string) =>
    redirect(`/admin/members/${id}`, { headers: { "Set-Cookie": setToastCookie({ title, description }) } });
  const refuse = (fieldErrors: Record<string, string>, status = 400, kept: Record<string, string> = {}) =>
    data<ActionAnswer>({ intent: values.intent, fieldErrors, values: kept }, { status });

  if (!checked.ok) {
    if (checked.fieldErrors.intent) return refuse({ form: checked.fieldErrors.intent });
    return refuse(checked.fieldErrors, 400, { note: values.note });
  }
  const wanted = checked.data;
  if (wanted.intent === "gift") {
    const member = await giftMonth(context.db, id, wanted.note, now);
    if (!member) throw notFound();
    return back("Month added", `${member.name} is paid until ${dayMonthYear(member.paidUntil)}.`);
  }
  if (wanted.intent === "cancel") {
    if (found.member.status === "cancelled") return refuse({ form: "This membership is already cancelled." }, 409);
    const cancelled = await cancelMembershipAndCard(context, id, "owner");
    if (!cancelled.ok) return refuse({ form: cancelled.reason }, 409);
    const { member } = cancelled;
    return back(
      "Membership cancelled",
      `It stays active until ${dayMonthYear(member.paidUntil)} and sends no more reminders.`,
    );
  }
  if (wanted.intent === "pause") {
    const paused = await pauseCardCharges(context, id, Number(wanted.months));
    if (!paused.ok) return refuse({ form: paused.reason }, 409);
    return back(
      "Card charges paused",
      `${paused.name} is not charged until ${dayMonthYear(paused.pausedUntil!)}; her membership starts again then.`,
    );
  }
  if (wanted.intent === "resume") {
    const resumed = await resumeCardCharges(context, id);
    if (!resumed.ok) return refuse({ form: resumed.reason }, 409);
    return back("Card charges resumed", `${resumed.name}'s card is charged again from her next renewal day.`);
  }
  const sent = await resendRenewalLink(context.db, id, now, memberLinkSettings(context.config));
  if (!sent) throw notFound();
  return back("Renewal link sent", `Emailed to ${found.member.email}.`);
}

const section = "card space-y-3 p-4 sm:p-6";
const details = "rounded-xl border border-ink/15 p-3";

export default function AdminMember({ loaderData, actionData }: Route.ComponentProps) {
  const { member, payments, emails, pauseMonths } = loaderData;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const answer = actionData as ActionAnswer | undefined;
  const giftErrors = answer?.intent === "gift" ? answer.fieldErrors : undefined;
  // A refused cancel (already cancelled, say in another tab) is shown above the actions: the cancel step itself is gone by then.
  const actionError = answer && answer.intent !== "gift" ? answer.fieldErrors.form : undefined;
  const pauseError = answer?.intent === "pause" ? answer.fieldErrors.months : undefined;
  return (
    <div className={adminPageClass}>
      <Link to="/admin/members" className="link text-sm">
        ← All members
      </Link>
      <AdminPageHeader title={member.name}>
        <MemberStatusBadge status={member.status} />
      </AdminPageHeader>

      <div className="grid gap-6 lg:grid-cols-2">
        <section className={section} aria-labelledby="member-heading">
          <h2 id="member-heading" className="text-xl font-semibold">
            Membership
          </h2>
          <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1">
            <dt className="text-ink-soft">Tier</dt>
            <dd className="break-words">
              {member.tierName}
              {member.tierPriceCents !== null ? (
                <>
                  {" "}
                  (<span className="whitespace-nowrap">{formatRand(member.tierPriceCents)}</span> a month)
                </>
              ) : null}
            </dd>
            {member.nextTierName ? (
              <>
                <dt className="text-ink-soft">Next tier</dt>
                <dd className="break-words">{member.nextTierName}, from the next renewal</dd>
              </>
            ) : null}
            <dt className="text-ink-soft">Status</dt>
            <dd>
              <MemberStatusBadge status={member.status} />
            </dd>
            <dt className="text-ink-soft">Paid until</dt>
            <dd data-testid="member-paid-until">{dayMonthYear(member.paidUntil)}</dd>
            <dt className="text-ink-soft">Pays</dt>
            <dd data-testid="member-pays" className={member.pays === "Card failed" ? "font-semibold text-red-800" : ""}>
              {member.pays}
            </dd>
            {member.pausedUntil ? (
              <>
                <dt className="text-ink-soft">Paused</dt>
                <dd data-testid="member-paused-until">
                  Paused until {dayMonthYear(member.pausedUntil)}: not charged, no access after paid-until
                </dd>
              </>
            ) : null}
            <dt className="text-ink-soft">Joined</dt>
            <dd>{formatDateTime(member.joinedAt)}</dd>
            {member.cancelledAt ? (
              <>
                <dt className="text-ink-soft">Cancelled</dt>
                <dd>{formatDateTime(member.cancelledAt)}</dd>
              </>
            ) : null}
          </dl>
        </section>

        <section className={section} aria-labelledby="contact-heading">
          <h2 id="contact-heading" className="text-xl font-semibold">
            Contact
          </h2>
          <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1">
            <dt className="text-ink-soft">Email</dt>
            <dd className="break-all">
              <a className="link" href={mailtoHref(member.email)}>
                {member.email}
              </a>
            </dd>
            <dt className="text-ink-soft">Phone</dt>
            <dd className="break-words">
              {member.phone ? (
                <a className="link" href={telHref(member.phone)}>
                  {member.phone}
                </a>
              ) : (
                "None given"
              )}
            </dd>
          </dl>
        </section>
      </div>

      <section className={section} aria-labelledby="actions-heading">
        <h2 id="actions-heading" className="text-xl font-semibold">
          Actions
        </h2>
        {actionError ? (
          <p role="alert" className="font-semibold text-red-800">
            {actionError}
          </p>
        ) : null}
        <details className={details} open={Boolean(giftErrors)}>
          <summary className="min-h-11 cursor-pointer py-2 font-semibold">Extend by a month</summary>
          <Form method="post" className="mt-2 space-y-3" noValidate>
            <input type="hidden" name="intent" value="gift" />
            <p className="text-ink-soft">
              A month free: paid until moves from {dayMonthYear(member.paidUntil)} by one calendar month, noted in the
              history below.
            </p>
            <TextField
              label="Note"
              name="note"
              required
              maxLength={GIFT_NOTE_MAX}
              defaultValue={answer?.intent === "gift" ? answer.values.note : ""}
              error={giftErrors?.note ?? giftErrors?.form}
              hint={`Why this month is a gift, up to ${GIFT_NOTE_MAX} characters.`}
            />
            <button type="submit" className="btn-primary" disabled={busy}>
              Yes, extend by a month
            </button>
          </Form>
        </details>

        {member.byCard && member.status === "active" && !member.pausedUntil ? (
          <details className={details} open={Boolean(pauseError)}>
            <summary className="min-h-11 cursor-pointer py-2 font-semibold">Pause card charges</summary>
            <Form method="post" className="mt-2 space-y-3" noValidate>
              <input type="hidden" name="intent" value="pause" />
              <p className="text-ink-soft">
                Her card is not charged for the months you choose. She keeps her membership until{" "}
                {dayMonthYear(member.paidUntil)}, gets no reminders while paused, and is charged again when the pause
                ends.
              </p>
              <fieldset aria-describedby={pauseError ? "pause-months-error" : undefined}>
                <legend className="font-semibold">How long</legend>
                <div className="mt-1 flex flex-wrap gap-x-4">
                  {pauseMonths.map((months) => (
                    <label key={months} className="flex min-h-11 items-center gap-2">
                      <input type="radio" name="months" value={months} className="size-5" />
                      {months === 1 ? "1 month" : `${months} months`}
                    </label>
                  ))}
                </div>
                {pauseError ? (
                  <p id="pause-months-error" className="font-semibold text-red-800">
                    {pauseError}
                  </p>
                ) : null}
              </fieldset>
              <button type="submit" className="btn-primary" disabled={busy}>
                Yes, pause her card charges
              </button>
            </Form>
          </details>
        ) : null}

        {member.pausedUntil && member.status !== "cancelled" ? (
          <details className={details}>
            <summary className="min-h-11 cursor-pointer py-2 font-semibold">Resume card charges</summary>
            <Form method="post" className="mt-2 space-y-3">
              <input type="hidden" name="intent" value="resume" />
              <p className="text-ink-soft">
                Ends the pause now: her card is charged on {dayMonthYear(member.paidUntil)} if that is still ahead,
                otherwise today, and her membership continues from that day.
              </p>
              <button type="submit" className="btn-primary" disabled={busy}>
                Yes, resume her card charges
              </button>
            </Form>
          </details>
        ) : null}

        {member.status !== "cancelled" ? (
          <details className={details}>
            <summary className="min-h-11 cursor-pointer py-2 font-semibold">Cancel membership</summary>
            <Form method="post" className="mt-2 space-y-3">
              <input type="hidden" name="intent" value="cancel" />
              <p className="text-ink-soft">
                The membership stays active until {dayMonthYear(member.paidUntil)}; no more reminders are sent.
              </p>
              <button
                type="submit"
                className="min-h-11 rounded-full bg-red-800 px-5 font-semibold text-white"
                disabled={busy}
              >
                Yes, cancel the membership
              </button>
            </Form>
          </details>
        ) : null}

        <details className={details}>
          <summary className="min-h-11 cursor-pointer py-2 font-semibold">Resend renewal link</summary>
          <Form method="post" className="mt-2 space-y-3">
            <input type="hidden" name="intent" value="resend" />
            <p className="text-ink-soft">Emails a link to pay for the next month.</p>
            <button type="submit" className="btn-outline max-w-full" disabled={busy}>
              <span className="min-w-0 [overflow-wrap:anywhere]">Yes, send it to {member.email}</span>
            </button>
          </Form>
        </details>
      </section>

      <section className={section} aria-labelledby="payments-heading">
        <h2 id="payments-heading" className="text-xl font-semibold">
          Payments and gifts
        </h2>
        {payments.length ? (
          <ol className="space-y-2">
            {payments.map((p) => (
              <li key={p.id} className="border-b border-ink/5 pb-2">
                <div className="flex flex-wrap justify-between gap-x-3">
                  <span className="font-semibold">
                    {p.kind === "gift" ? "Gift" : formatRand(p.amountCents)}: {p.tierName}, {dayMonthYear(p.startsOn)}{" "}
                    to {dayMonthYear(p.endsOn)}
                  </span>
                  <time className="text-sm text-ink-soft" dateTime={p.createdAt}>
                    {formatDateTime(p.createdAt)}
                  </time>
                </div>
                {p.orderId ? (
                  <Link to={`/admin/orders/${p.orderId}`} className="link text-sm">
                    Order {p.reference ?? ""}
                  </Link>
                ) : null}
                {p.note ? <p className="break-words text-sm">{p.note}</p> : null}
              </li>
            ))}
          </ol>
        ) : (
          <p className="text-ink-soft">No payments yet.</p>
        )}
      </section>

      <section className={section} aria-labelledby="emails-heading">
        <h2 id="emails-heading" className="text-xl font-semibold">
          Emails
        </h2>
        {emails.length ? (
          <ul className="space-y-1 text-sm">
            {emails.map((e) => (
              <li key={e.id} className="[overflow-wrap:anywhere]">
                <span className="font-semibold">{e.subject}</span>: queued {formatDateTime(e.createdAt)},{" "}
                {e.status === "sent" && e.sentAt
                  ? `sent ${formatDateTime(e.sentAt)}`
                  : e.status === "failed"
                    ? "could not be sent"
                    : "waiting to be sent"}
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-ink-soft">No emails yet.</p>
        )}
      </section>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  seo({
    title: loaderData ? `Member ${loaderData.member.name}` : "Member",
    description: "A member.",
    path: "/admin/members",
    siteUrl: siteUrlFrom(matches),
    noindex: true,
  });

export function ErrorBoundary() {
  return <AdminNotFound title="Member not found" backTo="/admin/members" backLabel="All members" />;
}
