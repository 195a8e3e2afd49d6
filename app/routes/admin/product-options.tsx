import { data, Form, Link, redirect, useNavigation } from "react-router";
import { setToastCookie } from "~/admin/flash-toast.server";
import { findProductForAdmin } from "~/catalog/product-admin.server";
import { postedOptions, readOptionsForm } from "~/catalog/product-options-form";
import { variantLabel } from "~/catalog/product-options";
import { listVariants, saveProductOptions, soldByRow } from "~/catalog/product-variants.server";
import { AdminPageHeader, adminPageClass } from "~/components/admin/AdminShell";
import { CheckboxField, ErrorSummary, SelectField, TextField } from "~/components/admin/fields";
import { seo, siteUrlFrom } from "~/lib/seo";
import { AdminNotFound } from "~/components/admin/ConfirmDelete";
import type { Route } from "./+types/product-options";

interface GridRowValues {
  value1: string;
  value2: string;
  label: string;
  stock: string;
  price: string;
  photo: string;
  on: boolean;
  /** Units a buyer can have now, and units sold: the owner's view of the row. */
  left: number | null;
  sold: number;
}

function productId(params: { id: string }): number {
  const id = Number(params.id);
  if (!/^\d{1,9}$/.test(params.id) || id < 1) throw data({ error: "Product not found" }, { status: 404 });
  return id;
}

export async function loader({ params, context }: Route.LoaderArgs) {
  const id = productId(params);
  const product = await findProductForAdmin(context.db, id);
  if (!product) throw data({ error: "Product not found" }, { status: 404 });
  const options = product.optionNames;
  const [rows, sold] = await Promise.all([
    listVariants(context.db, [id], context.clock.now()).then((m) => m.get(id) ?? []),
    soldByRow(context.db, id),
  ]);
  const shown = new Set(rows.filter((r) => r.enabled).map((r) => r.id));
  // Switched-off rows still in the options are listed (to switch back on); rows kept only for old orders are not.
  const inOptions = (r: { value1: string; value2: string }) =>
    (options[0]?.values.includes(r.value1) ?? false) && (options.length < 2 || options[1].values.includes(r.value2));
  const grid: GridRowValues[] = rows
    .filter((r) => shown.has(r.id) || inOptions(r))
    .map((r) => ({
      value1: r.value1,
      value2: r.value2,
      label: variantLabel(options, r),
      stock: r.stockQuantity === null ? "" : String(r.stockQuantity),
      price: r.priceCents === null ? "" : (r.priceCents / 100).toFixed(2),
      photo: r.image ?? "",
      on: r.enabled,
      left: r.available,
      sold: sold.get(r.id) ?? 0,
    }));
  return {
    product: { id, name: product.name, slug: product.slug, images: product.images, imageAlts: product.imageAlts },
    values: {
      name1: options[0]?.name ?? "",
      values1: options[0]?.values.join(", ") ?? "",
      name2: options[1]?.name ?? "",
      values2: options[1]?.values.join(", ") ?? "",
    },
    grid,
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const id = productId(params);
  const product = await findProductForAdmin(context.db, id);
  if (!product) throw data({ error: "Product not found" }, { status: 404 });
  const posted = postedOptions(await request.formData());
  const read = readOptionsForm(posted, product.stockQuantity, product.optionNames.length > 0);
  const values = { name1: posted.name1, values1: posted.values1, name2: posted.name2, values2: posted.values2 };
  if (!read.ok) return data({ fieldErrors: read.fieldErrors, values }, { status: 400 });
  const saved = await saveProductOptions(context.db, {
    itemId: id,
    options: read.options,
    rows: read.rows,
    now: context.clock.now(),
  });
  if (!saved.ok) {
    const fieldErrors: Record<string, string> = { form: saved.error };
    return data({ fieldErrors, values }, { status: 409 });
  }
  const toast = {
    title: "Sizes and colours saved",
    description: read.options.length
      ? `${saved.rows} ${saved.rows === 1 ? "row" : "rows"}, each with its own stock.`
      : `${product.name} sells as one thing again.`,
  };
  throw redirect(`/admin/products/${id}/options`, { headers: { "Set-Cookie": setToastCookie(toast) } });
}

export default function AdminProductOptions({ loaderData, actionData }: Route.ComponentProps) {
  const { product, grid } = loaderData;
  const values = actionData?.values ?? loaderData.values;
  const errors = actionData?.fieldErrors;
  const navigation = useNavigation();
  const saving = navigation.state === "submitting";
  const photoChoices = [
    { value: "", label: "The product's first photo" },
    ...product.images.map((src, i) => ({ value: src, label: product.imageAlts[i] || `Photo ${i + 1}` })),
  ];
  return (
    <div className={adminPageClass}>
      <Link to={`/admin/products/${product.id}`} className="link text-sm">
        ← {product.name}
      </Link>
      <AdminPageHeader title={`Sizes and colours: ${product.name}`}>
        <a href={`/product/${product.slug}`} className="btn-outline min-h-11 px-4 py-1.5 text-sm">
          View in shop
        </a>
      </AdminPageHeader>
      <Form method="post" className="max-w-5xl space-y-6" key={JSON.stringify(loaderData)} noValidate>
        <ErrorSummary errors={errors} />
        <section className="card space-y-5 p-4 sm:p-6" aria-labelledby="options-heading">
          <h2 id="options-heading" className="font-display text-xl">
            Options
          </h2>
          <p className="text-sm text-ink-soft">
            Up to two, e.g. Size with S, M, L and Colour with Indigo, Mustard. Type the values in the order buyers
            should see them, separated by commas, then save: a row appears for each combination. Leave both empty to
            sell the product as one thing.
          </p>
          {([1, 2] as const).map((n) => (
            <div key={n} className="grid gap-5 sm:grid-cols-[1fr_2fr]">
              <TextField
                label={`Option ${n} name`}
                name={`name${n}`}
                defaultValue={values[`name${n}`]}
                error={errors?.[`name${n}`]}
                maxLength={30}
                hint={n === 1 ? "e.g. Size" : "Optional, e.g. Colour"}
              />
              <TextField
                label={`Option ${n} values`}
                name={`values${n}`}
                defaultValue={values[`values${n}`]}
                error={errors?.[`values${n}`]}
                hint={n === 1 ? "e.g. S, M, L, XL" : "e.g. Indigo, Mustard"}
              />
            </div>
          ))}
        </section>
        {grid.length > 0 ? (
          <section aria-labelledby="rows-heading" className="space-y-3">
            <h2 id="rows-heading" className="font-display text-xl">
              Rows
            </h2>
            <p className="text-sm text-ink-soft">
              Stock: units left to sell (empty: not counted; 0 shows sold out). Price: empty uses the product&apos;s
              price.
            </p>
            <input type="hidden" name="hadGrid" value="1" />
            <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
              {grid.map((row, i) => (
                <li key={`${row.value1}|${row.value2}`} className="card space-y-3 p-4">
                  <h3 className="font-semibold">{row.label}</h3>
                  <p className="text-sm text-ink-soft">
                    {row.left === null ? "Not counted" : `${row.left} left now`} · sold {row.sold}
                  </p>
                  <input type="hidden" name="rowValue1" value={row.value1} />
                  <input type="hidden" name="rowValue2" value={row.value2} />
                  <TextField
                    label="Stock"
                    name="rowStock"
                    id={`row-${i}-stock`}
                    defaultValue={row.stock}
                    error={errors?.[`row-${i}-stock`]}
                    inputMode="numeric"
                  />
                  <TextField
                    label="Price (R)"
                    name="rowPrice"
                    id={`row-${i}-price`}
                    defaultValue={row.price}
                    error={errors?.[`row-${i}-price`]}
                    inputMode="decimal"
                  />
                  <SelectField
                    label="Photo"
                    name="rowPhoto"
                    id={`row-${i}-photo`}
                    defaultValue={row.photo}
                    options={photoChoices}
                  />
                  <CheckboxField
                    label="On sale"
                    name="rowOn"
                    id={`row-${i}-on`}
                    value={String(i)}
                    defaultChecked={row.on}
                  />
                </li>
              ))}
            </ul>
          </section>
        ) : null}
        <button type="submit" className="btn-primary" disabled={saving}>
          {saving ? "Saving..." : "Save sizes and colours"}
        </button>
      </Form>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  seo({
    title: loaderData ? `Sizes and colours: ${loaderData.product.name}` : "Sizes and colours",
    description: "A product's sizes and colours.",
    path: "/admin/products",
    siteUrl: siteUrlFrom(matches),
    noindex: true,
  });

export function ErrorBoundary() {
  return <AdminNotFound title="Product not found" backTo="/admin/products" backLabel="All products" />;
}
