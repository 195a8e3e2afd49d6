import { data, redirect } from "react-router";
import { setToastCookie } from "~/admin/flash-toast.server";
import type { Database } from "~/db/client.server";
import { textFields, validateForm } from "~/lib/form";
import { offerWindowSchema, saveOfferWindow } from "./offer-window.server";

/** The Settings page's offer-window form: validate, store, and say what changed. */
export async function saveOfferWindowForm(form: FormData, db: Database, now: Date) {
  const checked = validateForm(offerWindowSchema, textFields(form, ["offerHours"]));
  if (!checked.ok)
    return data(
      // The site settings form's fields stay as stored: only this form was sent.
      { offerWindowError: checked.fieldErrors.offerHours, fieldErrors: undefined, values: undefined },
      { status: 400 },
    );
  const changed = await saveOfferWindow(db, checked.data.offerHours, now);
  const toast = changed
    ? {
        title: "Offer window saved",
        description: `Offers made from now on hold seats for ${checked.data.offerHours} hours.`,
      }
    : { title: "Nothing to save", description: "The offer window was already as shown." };
  throw redirect("/admin/settings", { headers: { "Set-Cookie": setToastCookie(toast) } });
}
