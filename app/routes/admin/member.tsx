import { data, Link, redirect, useNavigation } from "react-router";
import { setToastCookie } from "~/admin/flash-toast.server";
import { formatDateTime } from "~/admin/format-date";
import { textFields, validateForm } from "~/lib/form";
import { mailtoHref } from "~/admin/mailto";
import { AdminNotFound } from "~/components/admin/ConfirmDelete";
import { AdminPageHeader, adminPageClass, adminSectionClass as section } from "~/components/admin/AdminShell";
import { MemberStatusBadge } from "~/components/admin/MemberStatus";
import { dayMonthYear } from "~/lib/dates-in-words";
import { formatRand } from "~/lib/money";
import { seo, siteUrlFrom } from "~/lib/seo";
import { MEMBER_ACTION_FIELDS, memberActionSchema } from "~/memberships/gift-schema";
import { memberLinkSettings } from "~/memberships/member-links.server";
import { findMemberForAdmin, parseMemberId } from "~/memberships/members-admin.server";
import { cancelMembershipAndCard } from "~/memberships/card-subscriptions.server";
import { pauseCardCharges, resumeCardCharges } from "~/memberships/card-pauses.server";
import { giftMonth, resendRenewalLink } from "~/memberships/members.server";
import { MemberActions, type MemberActionAnswer } from "~/components/admin/member/MemberActions";
import { MemberRecord } from "~/components/admin/member/MemberRecord";
import { adminMemberView } from "~/memberships/admin-member-view.server";
import type { Route } from "./+types/member";
import { telHref } from "~/lib/phone";

const notFound = () => data({ error: "Member not found" }, { status: 404 });

function memberIdFrom(params: { id?: string }): number {
  const id = parseMemberId(params.id);
  if (id === null) throw notFound();
  return id;
}

export async function loader({ params, context }: Route.LoaderArgs) {
  const view = await adminMemberView(context.db, memberIdFrom(params));
  if (!view) throw notFound();
  return view;
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
    data<MemberActionAnswer>({ intent: values.intent, fieldErrors, values: kept }, { status });

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

export default function AdminMember({ loaderData, actionData }: Route.ComponentProps) {
  const { member, payments, emails } = loaderData;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const answer = actionData as MemberActionAnswer | undefined;
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

      <MemberActions view={loaderData} answer={answer} busy={busy} />

      <MemberRecord payments={payments} emails={emails} />
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
