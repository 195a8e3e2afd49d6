import { data, Form, redirect, useNavigation } from "react-router";
import { setToastCookie } from "~/admin/flash-toast.server";
import { textFields, validateForm } from "~/lib/form";
import { AdminPageHeader, adminPageClass } from "~/components/admin/AdminShell";
import { ErrorSummary, TextField } from "~/components/admin/fields";
import { SA_PHONE_EXAMPLE } from "~/lib/phone";
import { seo, siteUrlFrom } from "~/lib/seo";
import { SITE_SETTING_FIELDS, siteSettingsSchema, type SiteSettings } from "~/settings/site-settings";
import { getSiteSettings, saveSiteSettings } from "~/settings/site-settings.server";
import type { Route } from "./+types/settings";
import { OfferWindowForm } from "~/components/waitlist/OfferWindowForm";
import { offerWindowHours } from "~/waitlist/offer-window.server";
import { saveOfferWindowForm } from "~/waitlist/offer-window-form.server";

export async function loader({ context }: Route.LoaderArgs) {
  return {
    values: await getSiteSettings(context.db, context.config.mail.ownerEmail),
    offerHours: await offerWindowHours(context.db),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  if (form.get("intent") === "offer-window") return saveOfferWindowForm(form, context.db, context.clock.now());
  const values = textFields(form, SITE_SETTING_FIELDS);
  const checked = validateForm(siteSettingsSchema, values);
  if (!checked.ok) return data({ fieldErrors: checked.fieldErrors, values }, { status: 400 });
  const { changed } = await saveSiteSettings(
    context.db,
    checked.data,
    context.clock.now(),
    context.config.mail.ownerEmail,
  );
  const toast = changed.length
    ? { title: "Settings saved", description: "Visitors see the new details on their next page load." }
    : { title: "Nothing to save", description: "The settings were already as shown." };
  throw redirect("/admin/settings", { headers: { "Set-Cookie": setToastCookie(toast) } });
}

export default function AdminSettings({ loaderData, actionData }: Route.ComponentProps) {
  const values = (actionData?.values as SiteSettings | undefined) ?? loaderData.values;
  const errors = actionData?.fieldErrors;
  const navigation = useNavigation();
  const saving = navigation.state === "submitting";
  return (
    <div className={adminPageClass}>
      <AdminPageHeader title="Settings" />
      {/* A key per saved version, so the fields show what was stored after a save. */}
      <Form
        method="post"
        className="card max-w-3xl space-y-6 p-4 sm:p-6"
        key={JSON.stringify(loaderData.values)}
        noValidate
      >
        <ErrorSummary errors={errors} />
        <fieldset className="space-y-5">
          <legend className="text-lg font-semibold">Contact details</legend>
          <p className="text-sm text-ink-soft">
            Shown on the Contact page, the home page and in the footer of every page, and in order emails.
          </p>
          <TextField
            label="Contact email"
            name="email"
            type="email"
            autoComplete="off"
            defaultValue={values.email}
            error={errors?.email}
            required
            maxLength={254}
          />
          <TextField
            label="Phone"
            name="phone"
            type="tel"
            autoComplete="off"
            defaultValue={values.phone}
            error={errors?.phone}
            required
            maxLength={30}
            hint={`A South African number, e.g. ${SA_PHONE_EXAMPLE}. Saved as +27 72 481 3396.`}
          />
          <TextField
            label="WhatsApp number"
            name="whatsapp"
            type="tel"
            autoComplete="off"
            defaultValue={values.whatsapp}
            error={errors?.whatsapp}
            maxLength={30}
            hint="Visitors tap it to chat on WhatsApp (Contact page, footer, order confirmation). Leave empty to show no WhatsApp link."
          />
          <TextField
            label="Location"
            name="location"
            defaultValue={values.location}
            error={errors?.location}
            required
            maxLength={120}
          />
          <TextField
            label="Availability"
            name="availability"
            defaultValue={values.availability}
            error={errors?.availability}
            required
            maxLength={200}
            hint="e.g. Available worldwide · South African time (GMT+2)"
          />
        </fieldset>
        <fieldset className="space-y-5">
          <legend className="text-lg font-semibold">Social pages</legend>
          <p className="text-sm text-ink-soft">
            Addresses starting with https://. Leave one empty to show no link to it.
          </p>
          <TextField
            label="Facebook"
            name="facebook"
            type="url"
            defaultValue={values.facebook}
            error={errors?.facebook}
            maxLength={300}
          />
          <TextField
            label="Instagram"
            name="instagram"
            type="url"
            defaultValue={values.instagram}
            error={errors?.instagram}
            maxLength={300}
          />
          <TextField
            label="LinkedIn"
            name="linkedin"
            type="url"
            defaultValue={values.linkedin}
            error={errors?.linkedin}
            maxLength={300}
          />
        </fieldset>
        <fieldset className="space-y-5">
          <legend className="text-lg font-semibold">Notifications</legend>
          <TextField
            label="Notification email"
            name="ownerEmail"
            type="email"
            autoComplete="off"
            defaultValue={values.ownerEmail}
            error={errors?.ownerEmail}
            required
            maxLength={254}
            hint="Where new messages and paid orders are announced. Never shown on the site."
          />
        </fieldset>
        <button type="submit" className="btn-primary" disabled={saving}>
          {saving ? "Saving..." : "Save settings"}
        </button>
      </Form>
      <OfferWindowForm
        hours={loaderData.offerHours}
        error={(actionData as { offerWindowError?: string } | undefined)?.offerWindowError}
      />
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) =>
  seo({
    title: "Settings",
    description: "The shop's contact details and notifications.",
    path: "/admin/settings",
    siteUrl: siteUrlFrom(matches),
    noindex: true,
  });
