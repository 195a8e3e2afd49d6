import { data, Form, redirect, useNavigation } from "react-router";
import { setToastCookie } from "~/admin/flash-toast.server";
import { checkboxFields, textFields, validateForm } from "~/lib/form";
import { AdminPageHeader, adminPageClass } from "~/components/admin/AdminShell";
import { CheckboxField, ErrorSummary, TextAreaField, TextField } from "~/components/admin/fields";
import { RandField } from "~/components/admin/RandField";
import { seo, siteUrlFrom } from "~/lib/seo";
import { listTiersForAdmin, saveTier } from "~/memberships/tier-admin.server";
import { TIER_PRICE_RULES, TIER_TEXT_FIELDS, tierSchema } from "~/memberships/tier-schema";
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
}

const SETS = [
  { set: "newer", title: "Current plans", hint: "Shown on the home page; each has its own page at /membership/…" },
  {
    set: "older",
    title: "Earlier plans",
    hint: "Not listed on the home page; reachable at their own page while visible.",
  },
] as const;

export async function loader({ context }: Route.LoaderArgs) {
  const rows = await listTiersForAdmin(context.db);
  return {
    tiers: rows.map((t) => ({
      tierSet: t.tierSet,
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
      } satisfies TierValues,
    })),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const values = { ...textFields(form, TIER_TEXT_FIELDS), ...checkboxFields(form, ["visible"]) };
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
  failed,
}: {
  initial: TierValues;
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
