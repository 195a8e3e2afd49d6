import { Form } from "react-router";
import { TextField } from "~/components/admin/fields";
import { dayMonthYear } from "~/lib/dates-in-words";
import type { AdminMemberView } from "~/memberships/admin-member-view.server";
import { GIFT_NOTE_MAX } from "~/memberships/gift-schema";
import { adminSectionClass as section } from "~/components/admin/AdminShell";

const details = "rounded-xl border border-ink/15 p-3";

/** What the member page's action answered when a form was refused: its errors, and what was typed. */
export interface MemberActionAnswer {
  intent: string;
  fieldErrors: Record<string, string>;
  values: Record<string, string>;
}

/**
 * What the owner can do for a member: a month free, pause or resume card charges, cancel, resend the
 * renewal link. Each behind its own Details; a refused one's reason is shown above them all.
 */
export function MemberActions({
  view: { member, pauseMonths },
  answer,
  busy,
}: {
  view: AdminMemberView;
  answer: MemberActionAnswer | undefined;
  busy: boolean;
}) {
  const giftErrors = answer?.intent === "gift" ? answer.fieldErrors : undefined;
  // A refused cancel (already cancelled, say in another tab) is shown above the actions: the cancel step itself is gone by then.
  const actionError = answer && answer.intent !== "gift" ? answer.fieldErrors.form : undefined;
  const pauseError = answer?.intent === "pause" ? answer.fieldErrors.months : undefined;
  return (
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
  );
}
