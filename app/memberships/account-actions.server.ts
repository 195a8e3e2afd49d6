import type { AppContext } from "~/context.server";
import { readSmallForm } from "~/lib/small-form.server";
import { dayMonthYear } from "~/lib/dates-in-words";
import {
  changePlanSchema,
  fieldErrors,
  memberDetailsSchema,
  signInRequestSchema,
  type FieldErrors,
  type MemberDetails,
} from "./account-schema";
import { cancelMembershipAndCard, chooseNextTierAndCard } from "./card-subscriptions.server";
import { resumeMembership, updateMemberDetails } from "./members.server";
import { formatRand } from "~/lib/money";
import { requestSignInLink, SIGN_IN_LINK_MINUTES } from "./sign-in-link.server";

type ActionContext = Pick<AppContext, "db" | "config" | "clock" | "clientIp">;

/** What an /account form gets back: a message, or messages under its fields with what was typed. */
export type AccountActionResult =
  | { intent: string; ok: true; message: string }
  | {
      intent: string;
      ok: false;
      message: string;
      errors?: FieldErrors<MemberDetails & { email: string }>;
      values?: Record<string, string>;
    };

/** Room for every field of the largest /account form, percent-encoded, and nothing more. */
const MAX_FORM_BYTES = 4096;

const text = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
};

export const UNREADABLE = "We could not read that form. Please try again.";
export const SIGN_IN_LIMITED = `Too many sign-in links were asked for. Please wait ${SIGN_IN_LINK_MINUTES} minutes and try again.`;

/** The same words whether or not the address is a member's (decision 087). */
export const signInSentMessage = (email: string) =>
  `If ${email} belongs to a member, a sign-in link is on its way. It works once, for ${SIGN_IN_LINK_MINUTES} minutes.`;

export async function readAccountForm(request: Request): Promise<FormData | null> {
  return readSmallForm(request, MAX_FORM_BYTES);
}

/**
 * Asking for a sign-in link: the form's check, the rate limits, and one answer for every address. The
 * link returns to `returnTo` (already checked by safeReturnPath) when given, else to /account.
 */
export async function askForSignInLink(
  context: ActionContext,
  form: FormData,
  returnTo?: string,
): Promise<{ status: number; result: AccountActionResult }> {
  const values = { email: text(form, "email") };
  const parsed = signInRequestSchema.safeParse(values);
  if (!parsed.success) {
    const errors = fieldErrors<{ email: string }>(parsed.error.issues);
    return {
      status: 400,
      result: { intent: "request-link", ok: false, message: errors.email ?? UNREADABLE, errors, values },
    };
  }
  const outcome = await requestSignInLink(context, parsed.data.email, returnTo);
  if (outcome.status === "limited")
    return { status: 429, result: { intent: "request-link", ok: false, message: SIGN_IN_LIMITED, values } };
  return { status: 200, result: { intent: "request-link", ok: true, message: signInSentMessage(parsed.data.email) } };
}

/**
 * One of the signed-in member's own forms; every change is made to `memberId`'s row only. Renewing is
 * an order (orders/renewal-checkout.server.ts), which the route starts itself.
 */
export async function memberAction(
  context: ActionContext,
  memberId: number,
  form: FormData,
): Promise<{ status: number; result: AccountActionResult }> {
  const intent = text(form, "intent");
  const now = context.clock.now();
  switch (intent) {
    case "change-plan": {
      const parsed = changePlanSchema.safeParse({ tier: text(form, "tier") });
      if (!parsed.success)
        return {
          status: 400,
          result: { intent, ok: false, message: parsed.error.issues[0]?.message ?? "Please choose a plan." },
        };
      const chosen = await chooseNextTierAndCard(context, memberId, parsed.data.tier);
      if (!chosen.ok) return { status: 400, result: { intent, ok: false, message: chosen.reason } };
      const member = chosen.member;
      const byCard =
        chosen.chargeCents !== null ? ` Your card will be charged ${formatRand(chosen.chargeCents)} then.` : "";
      const message =
        member.nextTierSlug && member.nextTierSlug !== member.tierSlug
          ? `Your plan changes at your next renewal, on ${dayMonthYear(member.paidUntil)}. Until then nothing changes.${byCard}`
          : `You stay on your current plan.${byCard}`;
      return { status: 200, result: { intent, ok: true, message } };
    }
    case "cancel": {
      const cancelled = await cancelMembershipAndCard(context, memberId, "member");
      if (!cancelled.ok) return { status: 409, result: { intent, ok: false, message: cancelled.reason } };
      const { member } = cancelled;
      return {
        status: 200,
        result: {
          intent,
          ok: true,
          message: `Your membership is cancelled. It ends on ${dayMonthYear(member.paidUntil)}, and we will not ask you to renew.`,
        },
      };
    }
    case "resume": {
      const member = await resumeMembership(context.db, memberId, now);
      if (!member) {
        return {
          status: 409,
          result: {
            intent,
            ok: false,
            message: "Your membership can no longer be kept: it has ended. Renew to start again.",
          },
        };
      }
      return {
        status: 200,
        result: {
          intent,
          ok: true,
          message: "Welcome back: your membership continues, and we will remind you before it is due.",
        },
      };
    }
    case "details": {
      const values = { name: text(form, "name"), phone: text(form, "phone") };
      const parsed = memberDetailsSchema.safeParse(values);
      if (!parsed.success) {
        return {
          status: 400,
          result: {
            intent,
            ok: false,
            message: "Please check your details.",
            errors: fieldErrors<MemberDetails>(parsed.error.issues),
            values,
          },
        };
      }
      await updateMemberDetails(context.db, memberId, parsed.data, now);
      return { status: 200, result: { intent, ok: true, message: "Your details are saved." } };
    }
    default:
      return { status: 400, result: { intent, ok: false, message: UNREADABLE } };
  }
}
