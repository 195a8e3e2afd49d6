import { useEffect, useRef, useState } from "react";
import { Form, useNavigation, useSearchParams } from "react-router";
import { getAnalyticsSessionId, trackEvent } from "~/analytics/track";
import { ActionToast, toast } from "~/components/ui/toast";
import {
  CHECKOUT_LIMITS,
  checkoutErrorToast,
  checkoutFormProblem,
  type CheckoutActionResult,
  type CheckoutValues,
} from "~/orders/checkout-schema";
import { MAX_SEATS_PER_CHECKOUT, sellsSeats } from "~/orders/checkout-seats";
import { NEWS_BOX_FIELD } from "~/newsletters/news-choice-schema";
import { NEWS_CONSENT_WORDING } from "~/newsletters/sign-up-words";
import { formatRand } from "~/lib/money";
import { ATTENDEE_FIELD, checkAttendees, seatLabels, type SeatGroup } from "~/tickets/attendees";
import { AttendeeFields } from "./AttendeeFields";

const fieldClass =
  "mt-1 block w-full min-h-11 rounded-md border border-ink/30 bg-white px-3 py-2 text-ink focus:border-ink " +
  "focus:outline-2 focus:outline-offset-2 focus:outline-honey";
const labelClass = "block text-sm font-medium text-ink";

interface CheckoutFormProps {
  type: string;
  item: string;
  itemName: string;
  amountCents: number;
  /** What the server will charge for 1, 2, … seats after a member's perks (issue 40); list price × seats without. */
  totalsBySeats?: number[];
  /** The action's answer when it did not redirect: a toast and the values typed. */
  result?: CheckoutActionResult | null;
  /** Seats already chosen (a bag's ticket lines, a waiting-list offer): a name field per seat. */
  seatGroups?: SeatGroup[];
}

/** The checkout button when the server's total is R 0.00 (issue 40); every paid order keeps the spec's words. */
export const FREE_ORDER_BUTTON = "Confirm free order";

/**
 * The customer form. A plain POST to /checkout (so it works before JavaScript loads) whose action
 * redirects to the payment page; with JavaScript the spec's toasts appear before anything is sent.
 */
/** The details last sent from this tab, so "Try Again" after a failed payment need not ask for them twice. */
const DETAILS_KEY = "checkout_details";
const DETAIL_FIELDS = ["firstName", "lastName", "email", "phone", "address"] as const;

function rememberDetails(values: Record<string, unknown>) {
  try {
    sessionStorage.setItem(
      DETAILS_KEY,
      JSON.stringify(Object.fromEntries(DETAIL_FIELDS.map((f) => [f, String(values[f] ?? "")]))),
    );
  } catch {
    // Storage full or disabled: the buyer types them again.
  }
}

function restoreDetails(form: HTMLFormElement) {
  try {
    const saved = JSON.parse(sessionStorage.getItem(DETAILS_KEY) ?? "null") as Record<string, string> | null;
    for (const field of DETAIL_FIELDS) {
      const input = form.elements.namedItem(field) as HTMLInputElement | HTMLTextAreaElement | null;
      if (input && !input.value && typeof saved?.[field] === "string") input.value = saved[field];
    }
  } catch {
    // Nothing usable saved.
  }
}

export function CheckoutForm({
  type,
  item,
  itemName,
  amountCents,
  totalsBySeats,
  result,
  seatGroups,
}: CheckoutFormProps) {
  const navigation = useNavigation();
  const submitting = navigation.state !== "idle" && navigation.formMethod?.toLowerCase() === "post";
  const [sessionId, setSessionId] = useState("");
  useEffect(() => setSessionId(getAnalyticsSessionId()), []);
  const formRef = useRef<HTMLFormElement>(null);
  const [params] = useSearchParams();
  const retrying = params.get("retry") === "1";
  useEffect(() => {
    if (retrying && formRef.current) restoreDetails(formRef.current);
  }, [retrying]);

  // The one-item checkout offers a name field for every seat it could sell; with JavaScript only the
  // seats chosen show. Without it every field shows, and names beyond the seats bought are ignored; a
  // browser with it never sees the others, even before hydration.
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const keptSeats = Number(result?.seats) || 1;
  const [chosenSeats, setChosenSeats] = useState(keptSeats);
  const [attendeeErrors, setAttendeeErrors] = useState<(string | null)[] | null>(null);
  const oneItemSeats = sellsSeats(type) && !seatGroups;
  const labels = oneItemSeats
    ? hydrated
      ? seatLabels([{ name: itemName, seats: chosenSeats }])
      : Array.from({ length: MAX_SEATS_PER_CHECKOUT }, (_, i) => `Seat ${i + 1}: ${itemName}`)
    : seatLabels(seatGroups ?? []);
  // What hydration shows: one seat needs no name beyond the buyer's.
  const scriptedAttendees = chosenSeats > 1 ? chosenSeats : 0;
  const shownAttendees = oneItemSeats && hydrated ? scriptedAttendees : labels.length;

  const shownErrors = attendeeErrors ?? result?.attendeeErrors;
  // The server's total for what is chosen: at R 0.00 (a member's perks) nothing goes to a payment page.
  const total = sellsSeats(type) ? (totalsBySeats?.[chosenSeats - 1] ?? amountCents * chosenSeats) : amountCents;
  const free = total === 0;
  const buttonLabel = free
    ? submitting
      ? "Confirming..."
      : FREE_ORDER_BUTTON
    : submitting
      ? "Creating Checkout..."
      : "Proceed to Payment";

  function checkBeforeSending(event: React.FormEvent<HTMLFormElement>) {
    const data = new FormData(event.currentTarget);
    const values = Object.fromEntries(data) as unknown as CheckoutValues;
    const problem = checkoutFormProblem(values);
    if (problem) {
      event.preventDefault();
      toast(problem);
      return;
    }
    const typed = data.getAll(ATTENDEE_FIELD).map(String);
    const attendees = checkAttendees(typed, typed.length, labels);
    setAttendeeErrors(attendees.ok ? null : attendees.errors);
    if (!attendees.ok) {
      event.preventDefault();
      toast(checkoutErrorToast(attendees.message));
      const bad = attendees.errors.findIndex((e) => e !== null);
      event.currentTarget.querySelector<HTMLInputElement>(`#attendee-${bad + 1}`)?.focus();
      return;
    }
    rememberDetails(values as unknown as Record<string, unknown>);
    trackEvent("checkout_attempted", {
      pagePath: "/checkout",
      itemName,
      metadata: { customerEmail: values.email, amount: amountCents },
    });
  }

  const kept = result?.values;
  return (
    <>
      <ActionToast message={result?.toast} />
      <Form
        ref={formRef}
        method="post"
        noValidate
        onSubmit={checkBeforeSending}
        className="grid gap-4"
        aria-label="Customer details"
      >
        <input type="hidden" name="type" value={type} />
        <input type="hidden" name="item" value={item} />
        <input type="hidden" name="sessionId" value={sessionId} />
        {sellsSeats(type) ? (
          <label className={labelClass}>
            Seats
            <select
              name="seats"
              defaultValue={String(keptSeats)}
              className={fieldClass}
              onChange={(event) => setChosenSeats(Number(event.currentTarget.value) || 1)}
            >
              {Array.from({ length: MAX_SEATS_PER_CHECKOUT }, (_, i) => i + 1).map((n) => (
                <option key={n} value={n}>
                  {n === 1 ? "1 seat" : `${n} seats`}, {formatRand(totalsBySeats?.[n - 1] ?? amountCents * n)}
                </option>
              ))}
            </select>
          </label>
        ) : null}
        <div className="grid gap-4 sm:grid-cols-2">
          <label className={labelClass}>
            First Name
            <input
              name="firstName"
              autoComplete="given-name"
              maxLength={CHECKOUT_LIMITS.name}
              required
              defaultValue={kept?.firstName}
              className={fieldClass}
            />
          </label>
          <label className={labelClass}>
            Last Name
            <input
              name="lastName"
              autoComplete="family-name"
              maxLength={CHECKOUT_LIMITS.name}
              required
              defaultValue={kept?.lastName}
              className={fieldClass}
            />
          </label>
        </div>
        <label className={labelClass}>
          Email
          <input
            type="email"
            name="email"
            autoComplete="email"
            maxLength={CHECKOUT_LIMITS.email}
            required
            defaultValue={kept?.email}
            className={fieldClass}
          />
        </label>
        <label className={labelClass}>
          Phone
          <input
            type="tel"
            name="phone"
            autoComplete="tel"
            maxLength={CHECKOUT_LIMITS.phone}
            required
            defaultValue={kept?.phone}
            className={fieldClass}
          />
        </label>
        <label className={labelClass}>
          Address
          <textarea
            name="address"
            autoComplete="street-address"
            rows={4}
            maxLength={CHECKOUT_LIMITS.address}
            required
            defaultValue={kept?.address}
            className={fieldClass}
          />
        </label>
        <AttendeeFields
          labels={labels}
          shown={shownAttendees}
          scriptedShown={oneItemSeats ? scriptedAttendees : shownAttendees}
          kept={result?.attendees}
          errors={shownErrors}
          onEdit={(i) => setAttendeeErrors((shownErrors ?? []).map((e, j) => (j === i ? null : e)))}
        />
        <label className="flex min-h-11 items-center gap-3 text-ink">
          <input type="checkbox" name={NEWS_BOX_FIELD} className="size-5 accent-ink" />
          <span>{NEWS_CONSENT_WORDING}</span>
        </label>
        <button type="submit" className="btn-primary w-full sm:w-auto" disabled={submitting}>
          {buttonLabel}
        </button>
        <p className="text-sm text-ink/80">
          {free
            ? "Nothing to pay: your member perks cover this order, and it is confirmed at once."
            : "You will pay by card on a secure payment page. Prices are in South African rand."}
        </p>
      </Form>
    </>
  );
}
