import { data, Form, Link, redirect, useNavigation } from "react-router";
import { setToastCookie } from "~/admin/flash-toast.server";
import { AdminPageHeader, adminPageClass } from "~/components/admin/AdminShell";
import { AdminNotFound } from "~/components/admin/ConfirmDelete";
import { CheckboxField, ErrorSummary, SelectField, TextField } from "~/components/admin/fields";
import { RandField } from "~/components/admin/RandField";
import { checkboxFields, textFields, validateForm } from "~/lib/form";
import { seo, siteUrlFrom } from "~/lib/seo";
import {
  CODE_KINDS,
  CODE_SCOPES,
  CODE_TEXT_FIELDS,
  discountCodeSchema,
  FIXED_OFF_RULES,
  MINIMUM_SPEND_RULES,
} from "~/pricing/discount-code-schema";
import { codeItemChoices, findCodeForAdmin, saveCode, type CodeRow } from "~/pricing/discount-codes-admin.server";
import type { Route } from "./+types/code-edit";

interface FormValues {
  code: string;
  kind: string;
  percent: string;
  fixed: string;
  scope: string;
  items: string[];
  validFrom: string;
  validUntil: string;
  totalUses: string;
  usesPerEmail: string;
  minimumSpend: string;
  active: boolean;
}

const NEW_CODE: FormValues = {
  code: "",
  kind: "percent",
  percent: "",
  fixed: "",
  scope: "everything",
  items: [],
  validFrom: "",
  validUntil: "",
  totalUses: "",
  usesPerEmail: "",
  minimumSpend: "",
  active: true,
};

const rands = (cents: number) => (cents / 100).toFixed(2);

function formValuesOf(row: CodeRow): FormValues {
  return {
    code: row.code,
    kind: row.kind,
    percent: row.kind === "percent" ? String(row.amount) : "",
    fixed: row.kind === "fixed" ? rands(row.amount) : "",
    scope: row.scope,
    items: row.items,
    validFrom: row.validFrom ?? "",
    validUntil: row.validUntil ?? "",
    totalUses: row.totalUses === null ? "" : String(row.totalUses),
    usesPerEmail: row.usesPerEmail === null ? "" : String(row.usesPerEmail),
    minimumSpend: row.minimumSpendCents ? rands(row.minimumSpendCents) : "",
    active: row.active,
  };
}

/** The code's id from the URL, or null on /admin/codes/new; a malformed id is a 404. */
function codeId(params: { id?: string }): number | null {
  if (params.id === undefined) return null;
  if (!/^\d{1,9}$/.test(params.id) || Number(params.id) < 1) throw data({ error: "Code not found" }, { status: 404 });
  return Number(params.id);
}

export async function loader({ params, context }: Route.LoaderArgs) {
  const id = codeId(params);
  const choices = await codeItemChoices(context.db);
  if (id === null) return { id: null, values: NEW_CODE, choices };
  const row = await findCodeForAdmin(context.db, id);
  if (!row) throw data({ error: "Code not found" }, { status: 404 });
  return { id, values: formValuesOf(row), choices };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const id = codeId(params);
  const form = await request.formData();
  const items = form.getAll("items").filter((v): v is string => typeof v === "string");
  const values = { ...textFields(form, CODE_TEXT_FIELDS), ...checkboxFields(form, ["active"]), items };
  const checked = validateForm(discountCodeSchema, values);
  if (!checked.ok) return data({ fieldErrors: checked.fieldErrors, values }, { status: 400 });
  const saved = await saveCode(context.db, { id, input: checked.data, now: context.clock.now() });
  if (!saved.ok) return data({ fieldErrors: saved.fieldErrors, values }, { status: 400 });
  const code = checked.data.code.toUpperCase();
  const toast = {
    title: saved.created ? `Code ${code} added` : `Code ${code} saved`,
    description: checked.data.active ? "Buyers can use it at checkout." : "It is off: checkouts refuse it.",
  };
  throw redirect("/admin/codes", { headers: { "Set-Cookie": setToastCookie(toast) } });
}

function ItemChoices({
  choices,
  chosen,
  error,
}: {
  choices: { value: string; label: string }[];
  chosen: string[];
  error?: string;
}) {
  return (
    <fieldset aria-describedby={`field-items-hint${error ? " field-items-error" : ""}`}>
      <legend className="font-semibold">Chosen items</legend>
      <p id="field-items-hint" className="text-sm text-ink-soft">
        Used when it applies to Chosen items. An event covers all its tickets.
      </p>
      <div className="mt-1 grid gap-x-4 sm:grid-cols-2">
        {choices.map((choice) => (
          <label key={choice.value} className="flex min-h-11 items-center gap-3">
            <input
              type="checkbox"
              name="items"
              value={choice.value}
              defaultChecked={chosen.includes(choice.value)}
              className="h-5 w-5 shrink-0 accent-ink"
            />
            <span className="min-w-0 break-words">{choice.label}</span>
          </label>
        ))}
      </div>
      {error ? (
        <p id="field-items-error" className="mt-1 text-sm font-semibold text-red-800">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

export default function AdminCodeEdit({ loaderData, actionData }: Route.ComponentProps) {
  const { id, choices } = loaderData;
  const values = (actionData?.values as FormValues | undefined) ?? loaderData.values;
  const errors = actionData?.fieldErrors;
  const navigation = useNavigation();
  const saving = navigation.state === "submitting";
  const title = id === null ? "New discount code" : `Edit ${loaderData.values.code}`;
  return (
    <div className={adminPageClass}>
      <Link to="/admin/codes" className="link text-sm">
        ← All codes
      </Link>
      <AdminPageHeader title={title} />
      {/* A key per saved version, so the fields show what was stored after a save. */}
      <Form
        method="post"
        className="card max-w-3xl space-y-5 p-4 sm:p-6"
        key={JSON.stringify(loaderData.values)}
        noValidate
      >
        <ErrorSummary errors={errors} />
        <TextField
          label="Code"
          name="code"
          defaultValue={values.code}
          error={errors?.code}
          required
          maxLength={32}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          hint="Letters and digits, e.g. LAUNCH20. Buyers may type it in any case."
        />
        <SelectField
          label="It takes off"
          name="kind"
          defaultValue={values.kind}
          error={errors?.kind}
          options={CODE_KINDS}
        />
        <div className="grid gap-5 sm:grid-cols-2">
          <TextField
            label="Percent off"
            name="percent"
            defaultValue={values.percent}
            error={errors?.percent}
            inputMode="numeric"
            hint="1 to 100, for a percentage off."
          />
          <RandField
            label="Rand off"
            name="fixed"
            defaultValue={values.fixed}
            error={errors?.fixed}
            hint="For an amount off the order, e.g. 50 or 50,00."
            rules={FIXED_OFF_RULES}
            verb="Takes off"
          />
        </div>
        <SelectField
          label="Applies to"
          name="scope"
          defaultValue={values.scope}
          error={errors?.scope}
          options={CODE_SCOPES}
          hint="Memberships: the first month only, never a renewal."
        />
        <ItemChoices choices={choices} chosen={values.items} error={errors?.items} />
        <div className="grid gap-5 sm:grid-cols-2">
          <TextField
            label="Valid from"
            name="validFrom"
            type="date"
            defaultValue={values.validFrom}
            error={errors?.validFrom}
            hint="South African date. Empty: from now."
          />
          <TextField
            label="Valid until"
            name="validUntil"
            type="date"
            defaultValue={values.validUntil}
            error={errors?.validUntil}
            hint="The last day it works. Empty: no end."
          />
          <TextField
            label="Total uses"
            name="totalUses"
            defaultValue={values.totalUses}
            error={errors?.totalUses}
            inputMode="numeric"
            hint="Empty: no limit."
          />
          <TextField
            label="Uses per customer"
            name="usesPerEmail"
            defaultValue={values.usesPerEmail}
            error={errors?.usesPerEmail}
            inputMode="numeric"
            hint="Per email address. Empty: no limit."
          />
        </div>
        <RandField
          label="Minimum spend"
          name="minimumSpend"
          defaultValue={values.minimumSpend}
          error={errors?.minimumSpend}
          hint="On the items it applies to, before discounts. Empty: none."
          rules={MINIMUM_SPEND_RULES}
          verb="Needs"
        />
        <CheckboxField
          label="On"
          name="active"
          defaultChecked={values.active}
          error={errors?.active}
          hint="A code that is off is refused at checkout."
        />
        <button type="submit" className="btn-primary" disabled={saving}>
          {saving ? "Saving..." : id === null ? "Add code" : "Save code"}
        </button>
      </Form>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  seo({
    title: loaderData?.id ? `Edit ${loaderData.values.code}` : "New discount code",
    description: "Edit a discount code.",
    path: "/admin/codes",
    siteUrl: siteUrlFrom(matches),
    noindex: true,
  });

export function ErrorBoundary() {
  return <AdminNotFound title="Code not found" backTo="/admin/codes" backLabel="All codes" />;
}
