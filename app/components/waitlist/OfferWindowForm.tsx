import { Form } from "react-router";
import { TextField } from "~/components/admin/fields";

/** The Settings page's own form for the waiting list: how long an offered seat is held. */
export function OfferWindowForm({ hours, error }: { hours: number; error?: string }) {
  return (
    <Form method="post" className="card max-w-3xl space-y-5 p-4 sm:p-6" key={hours} noValidate>
      <input type="hidden" name="intent" value="offer-window" />
      <fieldset className="space-y-5">
        <legend className="text-lg font-semibold">Waiting list</legend>
        <TextField
          label="Offer window (hours)"
          name="offerHours"
          inputMode="numeric"
          defaultValue={String(hours)}
          error={error}
          required
          maxLength={3}
          hint={
            "How long seats freed for the next person on a waiting list stay held for them, from 1 to 168 " +
            "hours. Offers already sent keep their time."
          }
        />
      </fieldset>
      <button type="submit" className="btn-primary">
        Save offer window
      </button>
    </Form>
  );
}
