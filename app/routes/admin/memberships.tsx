import { data, Form, redirect, useNavigation } from "react-router";
import { setToastCookie } from "~/admin/flash-toast.server";
import { checkboxFields, textFields, validateForm } from "~/lib/form";
import { AdminPageHeader, adminPageClass } from "~/components/admin/AdminShell";
import { CheckboxField, ErrorSummary, TextAreaField, TextField } from "~/components/admin/fields";
import { RandField } from "~/components/admin/RandField";
import { seo, siteUrlFrom } from "~/lib/seo";
import { listEventsForPerks, listTiersForAdmin, saveTier } from "~/memberships/tier-admin.server";
import { TIER_CHECKBOX_FIELDS, TIER_PRICE_RULES, TIER_TEXT_FIELDS, tierSchema } from "~/memberships/tier-schema";
import { perksInWords } from "~/pricing/perk-words";
import type { Route } from "./+types/memberships";

interface TierValues {
  slug: string;
  name: string;
  price: string;
  confirmPrice: string;
  priceText: string;
  description: string;
  benefits: string;
  visible: boolean;
  sortOrder: string;
  percentOffEvents: string;
  freeTicketsPerMonth: string;
  freeTicketEvents: string[];
  allEventsFree: boolean;
  percentOffProducts: string;
}

type EventChoice = { id: string; title: string };

const SETS = [
  { set: "newer", title: "Current plans", hint: "Shown on the home page; each has its own page at /membership/…" },
  {
    set: "older",
    title: "Earlier plans",
    hint: "Not listed on the home page; reachable at their own page while visible.",
  },
] as const;

export async function loader({ context }: Route.LoaderArgs) {
  const [rows, eventChoices] = await Promise.all([listTiersForAdmin(context.db), listEventsForPerks(context.db)]);
  const eventTitles = Object.fromEntries(eventChoices.map((e) => [e.id, e.title]));
  return {
    events: eventChoices,
    tiers: rows.map((t) => ({
      tierSet: t.tierSet,
      perks: perksInWords(t, eventTitles),
      values: {
        slug: t.slug,
        name: t.name,
        price: t.priceCents === null ? "" : (t.priceCents / 100).toFixed(2),
        confirmPrice: "",
        priceText: t.priceCents === null ? t.priceText : "",
        description: t.description,
        benefits: t.features.join("\n"),
        visible: t.visible,
        sortOrder: String(t.sortOrder),
        percentOffEvents: String(t.perkPercentOffEvents),
        freeTicketsPerMonth: String(t.perkFreeTicketsPerMonth),
        freeTicketEvents: t.perkFreeTicketEvents === "any" ? [] : t.perkFreeTicketEvents,
        allEventsFree: t.perkAllEventsFree,
        percentOffProducts: String(t.perkPercentOffProducts),
      } satisfies TierValues,
    })),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const values = {
    ...textFields(form, TIER_TEXT_FIELDS),
    ...checkboxFields(form, TIER_CHECKBOX_FIELDS),
    freeTicketEvents: form.getAll("freeTicketEvents").filter((v): v is string => typeof v === "string"),
  };
  const checked = validateForm(tierSchema, values);
  if (!checked.ok) return data({ slug: values.slug, fieldErrors: checked.fieldErrors, values }, { status: 400 });
  const saved = await saveTier(context.db, checked.data, context.clock.now());
  if (!saved.ok && saved.missing) throw data({ error: "Membership plan not found" }, { status: 404 });
  if (!saved.ok)
    return data({ slug: values.slug, fieldErrors: saved.fieldErrors, values, confirm: saved.confirm }, { status: 400 });
  const toast = {
    title: `${checked.data.name} saved`,
    description: checked.data.visible
      ? "It shows on the site now."
      : "It is hidden: its page is gone and it can't be bought.",
  };
  throw redirect(`/admin/memberships#tier-${checked.data.slug}`, { headers: { "Set-Cookie": setToastCookie(toast) } });
}

function TierForm({
  initial,
  perks,
  eventChoices,
  failed,
}: {
  initial: TierValues;
  perks: string[];
  eventChoices: EventChoice[];
  failed?: { fieldErrors: Record<string, string>; values: TierValues; confirm?: Record<string, number> };
}) {
  const values = failed?.values ?? initial;
  const errors = failed?.fieldErrors;
  const navigation = useNavigation();
  const saving = navigation.state === "submitting" && navigation.formData?.get("slug") === initial.slug;
  const id = (field: string) => `tier-${initial.slug}-${field}`;
  return (
    <details id={`tier-${initial.slug}`} className="card p-4 sm:p-6" open={Boolean(failed)}>
      <summary className="flex min-h-11 cursor-pointer flex-wrap items-center gap-x-3 py-2">
        <span className="font-semibold">{initial.name}</span>
        <span className="text-ink-soft">{initial.price ? `R ${initial.price} / month` : initial.priceText}</span>
        {initial.visible ? null : <span className="rounded-full bg-cream-deep px-2 text-sm font-semibold">Hidden</span>}
        <span className="basis-full text-sm text-ink-soft">Perks: {perks.length ? perks.join("; ") : "none"}</span>
      </summary>
      <Form
        method="post"
        className="mt-4 space-y-5"
        key={JSON.stringify(initial)}
        noValidate
        aria-label={`Edit ${initial.name}`}
      >
        <ErrorSummary errors={errors} />
        <input type="hidden" name="slug" value={initial.slug} />
        <TextField
          id={id("name")}
          label="Name"
          name="name"
          defaultValue={values.name}
          error={errors?.name}
          required
          maxLength={80}
        />
        <div className="grid gap-5 sm:grid-cols-2">
          <RandField
            id={id("price")}
            label="Price per month (R)"
            name="price"
            defaultValue={values.price}
            error={errors?.price}
            hint="e.g. 150 or 150,00"
            rules={TIER_PRICE_RULES}
            confirmName="confirmPrice"
            confirmCents={failed?.confirm?.price}
          />
          <TextField
            id={id("priceText")}
            label="Price on request"
            name="priceText"
            defaultValue={values.priceText}
            error={errors?.priceText}
            maxLength={60}
            hint="Shown instead of a price when Price is empty, e.g. Contact Us. Such a plan is not sold online."
          />
        </div>
        <TextAreaField
          id={id("description")}
          label="Description"
          name="description"
          defaultValue={values.description}
          error={errors?.description}
          required
          rows={3}
        />
        <TextAreaField
          id={id("benefits")}
          label="Benefits"
          name="benefits"
          defaultValue={values.benefits}
          error={errors?.benefits}
          required
          rows={5}
          hint="One per line."
        />
        <TextField
          id={id("sortOrder")}
          label="Sort order"
          name="sortOrder"
          defaultValue={values.sortOrder}
          error={errors?.sortOrder}
          inputMode="numeric"
          hint="Lower numbers come first."
        />
        <PerkFields id={id} values={values} errors={errors} eventChoices={eventChoices} />
        <CheckboxField
          id={id("visible")}
          label="Visible"
          name="visible"
          defaultChecked={values.visible}
          error={errors?.visible}
          hint="A hidden plan is off the site: its page answers Not Found and it can't be bought."
        />
        <button type="submit" className="btn-primary" disabled={saving}>
          {saving ? "Saving..." : `Save ${initial.name}`}
        </button>
      </Form>
    </details>
  );
}

/** What a member of this tier gets at checkout while active or due (the pricing rule reads these). */
function PerkFields({
  id,
  values,
  errors,
  eventChoices,
}: {
  id: (field: string) => string;
  values: TierValues;
  errors?: Record<string, string>;
  eventChoices: EventChoice[];
}) {
  const eventsError = errors?.freeTicketEvents;
  return (
    <fieldset className="space-y-5 rounded-lg border border-ink/20 p-4">
      <legend className="px-1 text-lg font-semibold">Member perks</legend>
      <p className="text-sm text-ink-soft">
        Active members, and members whose payment is due, get these at checkout; lapsed or cancelled members do not.
      </p>
      <div className="grid gap-5 sm:grid-cols-2">
        <TextField
          id={id("percentOffEvents")}
          label="Percent off workshops and events"
          name="percentOffEvents"
          defaultValue={values.percentOffEvents}
          error={errors?.percentOffEvents}
          inputMode="numeric"
          hint="0 to 100."
        />
        <TextField
          id={id("percentOffProducts")}
          label="Percent off products"
          name="percentOffProducts"
          defaultValue={values.percentOffProducts}
          error={errors?.percentOffProducts}
          inputMode="numeric"
          hint="0 to 100. Consultation services are not products."
        />
      </div>
      <TextField
        id={id("freeTicketsPerMonth")}
        label="Free tickets per month"
        name="freeTicketsPerMonth"
        defaultValue={values.freeTicketsPerMonth}
        error={errors?.freeTicketsPerMonth}
        inputMode="numeric"
        hint="Counted per calendar month, South African time. 0 for none."
      />
      <fieldset
        aria-describedby={`${id("freeTicketEvents")}-hint${eventsError ? ` ${id("freeTicketEvents")}-error` : ""}`}
      >
        <legend className="font-semibold">Free tickets are for</legend>
        <p id={`${id("freeTicketEvents")}-hint`} className="text-sm text-ink-soft">
          Leave all unticked for any event or workshop.
        </p>
        <div className="mt-1 grid gap-x-4 sm:grid-cols-2">
          {eventChoices.map((event) => (
            <label key={event.id} className="flex min-h-11 items-center gap-3">
              <input
                type="checkbox"
                name="freeTicketEvents"
                value={event.id}
                defaultChecked={values.freeTicketEvents.includes(event.id)}
                className="h-5 w-5 shrink-0 accent-ink"
              />
              <span className="min-w-0 break-words">{event.title}</span>
            </label>
          ))}
        </div>
        {eventsError ? (
          <p id={`${id("freeTicketEvents")}-error`} className="mt-1 text-sm font-semibold text-red-800">
            {eventsError}
          </p>
        ) : null}
      </fieldset>
      <CheckboxField
        id={id("allEventsFree")}
        label="All events and workshops free"
        name="allEventsFree"
        defaultChecked={values.allEventsFree}
        error={errors?.allEventsFree}
        hint="Overrides the percent and the free tickets above."
      />
    </fieldset>
  );
}

export default function AdminMemberships({ loaderData, actionData }: Route.ComponentProps) {
  const failed = actionData as
    | { slug: string; fieldErrors: Record<string, string>; values: TierValues; confirm?: Record<string, number> }
    | undefined;
  return (
    <div className={adminPageClass}>
      <AdminPageHeader title="Memberships" />
      {SETS.map(({ set, title, hint }) => {
        const tiers = loaderData.tiers.filter((t) => t.tierSet === set);
        if (!tiers.length) return null;
        return (
          <section key={set} aria-labelledby={`set-${set}`} className="max-w-3xl space-y-3">
            <h2 id={`set-${set}`} className="text-xl font-semibold">
              {title}
            </h2>
            <p className="text-sm text-ink-soft">{hint}</p>
            {tiers.map((t) => (
              <TierForm
                key={t.values.slug}
                initial={t.values}
                perks={t.perks}
                eventChoices={loaderData.events}
                failed={failed?.slug === t.values.slug ? failed : undefined}
              />
            ))}
          </section>
        );
      })}
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) =>
  seo({
    title: "Memberships",
    description: "The membership plans.",
    path: "/admin/memberships",
    siteUrl: siteUrlFrom(matches),
    noindex: true,
  });
