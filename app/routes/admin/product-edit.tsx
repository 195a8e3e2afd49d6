import { data, Form, Link, redirect, useNavigation } from "react-router";
import { archiveOrDelete, archivedOrDeletedToast } from "~/admin/archive-or-delete.server";
import { setToastCookie } from "~/admin/flash-toast.server";
import { checkboxFields, textFields, validateForm } from "~/lib/form";
import { findProductForAdmin, removeProduct, saveProduct } from "~/catalog/product-admin.server";
import { PRODUCT_KINDS, PRODUCT_PRICE_RULES, PRODUCT_TEXT_FIELDS, productSchema } from "~/catalog/product-schema";
import { AdminPageHeader, adminPageClass } from "~/components/admin/AdminShell";
import { CheckboxField, ErrorSummary, SelectField, TextAreaField, TextField } from "~/components/admin/fields";
import { PhotoPicker, photoPickerErrors } from "~/components/admin/PhotoPicker";
import { RandField } from "~/components/admin/RandField";
import { readPhotosFromForm } from "~/media/photos.server";
import { seo, siteUrlFrom } from "~/lib/seo";
import type { Route } from "./+types/product-edit";
import { photosWithAlts } from "~/media/photo-schema";
import { isNewAt, NEW_FOR_DAYS } from "~/catalog/collection-options";
import { formatDateTime } from "~/admin/format-date";
import { AdminNotFound, ConfirmDelete } from "~/components/admin/ConfirmDelete";

interface FormValues {
  name: string;
  slug: string;
  kind: string;
  price: string;
  confirmPrice: string;
  priceText: string;
  description: string;
  stock: string;
  visible: boolean;
  markNew: boolean;
  sortOrder: string;
  photos: { src: string; alt: string }[];
}

const NEW_PRODUCT: FormValues = {
  name: "",
  slug: "",
  kind: "product",
  price: "",
  confirmPrice: "",
  priceText: "",
  description: "",
  stock: "",
  visible: true,
  markNew: false,
  sortOrder: "0",
  photos: [],
};

/** What ticking "New" does, and until when a piece already marked shows the badge. */
const newHint = (newUntil: string | null) =>
  `Shows a "New" badge on its card for ${NEW_FOR_DAYS} days from the save that ticks it.` +
  (newUntil ? ` New until ${formatDateTime(newUntil)}.` : "");

/** The product's id from the URL, or null on /admin/products/new; a malformed id is a 404. */
function productId(params: { id?: string }): number | null {
  if (params.id === undefined) return null;
  const id = Number(params.id);
  if (!/^\d{1,9}$/.test(params.id) || id < 1) throw data({ error: "Product not found" }, { status: 404 });
  return id;
}

export async function loader({ params, context }: Route.LoaderArgs) {
  const id = productId(params);
  if (id === null) return { id: null, slug: null, newUntil: null, values: NEW_PRODUCT, options: [] };
  const row = await findProductForAdmin(context.db, id);
  if (!row) throw data({ error: "Product not found" }, { status: 404 });
  const values: FormValues = {
    name: row.name,
    slug: row.slug,
    kind: row.kind,
    price: row.priceCents === null ? "" : (row.priceCents / 100).toFixed(2),
    confirmPrice: "",
    priceText: row.priceCents === null ? row.priceText : "",
    description: row.description,
    stock: row.stockQuantity === null ? "" : String(row.stockQuantity),
    visible: row.visible,
    markNew: isNewAt(row.newUntil, context.clock.now()),
    sortOrder: String(row.sortOrder),
    photos: photosWithAlts(row.images, row.imageAlts, row.name),
  };
  return {
    id: row.id,
    slug: row.slug,
    newUntil: values.markNew ? row.newUntil!.toISOString() : null,
    values,
    options: row.optionNames.map((o) => o.name),
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const id = productId(params);
  const form = await request.formData();
  const now = context.clock.now();

  if (textFields(form, ["intent"]).intent === "delete") {
    return archiveOrDelete({
      id,
      notFound: "Product not found",
      remove: (found) => removeProduct(context.db, found, now),
      listPath: "/admin/products",
      toast: archivedOrDeletedToast("Product", "shop"),
    });
  }

  const { photos, errors: uploadErrors } = await readPhotosFromForm(context.db, form);
  const values = { ...textFields(form, PRODUCT_TEXT_FIELDS), ...checkboxFields(form, ["visible", "markNew"]), photos };
  const checked = validateForm(productSchema, values);
  if (!checked.ok || uploadErrors.length) {
    const fieldErrors = checked.ok ? {} : checked.fieldErrors;
    if (uploadErrors.length) fieldErrors.photos ??= uploadErrors.join(" ");
    return data({ fieldErrors, values }, { status: 400 });
  }
  const saved = await saveProduct(context.db, { id, input: checked.data, now });
  if (!saved.ok)
    return data(
      { fieldErrors: saved.fieldErrors, values, confirm: saved.confirm },
      { status: saved.fieldErrors.form ? 409 : 400 },
    );
  const toast = {
    title: saved.created ? "Product added" : "Product saved",
    description: checked.data.visible ? "It shows in the shop now." : "It is hidden from the shop.",
  };
  throw redirect(`/admin/products/${saved.id}`, { headers: { "Set-Cookie": setToastCookie(toast) } });
}

export default function AdminProductEdit({ loaderData, actionData }: Route.ComponentProps) {
  const { id, slug } = loaderData;
  const values = (actionData?.values as FormValues | undefined) ?? loaderData.values;
  const errors = actionData?.fieldErrors;
  const confirm =
    actionData && "confirm" in actionData ? (actionData.confirm as Record<string, number> | undefined) : undefined;
  const navigation = useNavigation();
  const saving = navigation.state === "submitting" && navigation.formData?.get("intent") !== "delete";
  const title = id === null ? "New product" : `Edit ${loaderData.values.name}`;
  return (
    <div className={adminPageClass}>
      <Link to="/admin/products" className="link text-sm">
        ← All products
      </Link>
      <AdminPageHeader title={title}>
        {slug ? (
          <a href={`/product/${slug}`} className="btn-outline min-h-11 px-4 py-1.5 text-sm">
            View in shop
          </a>
        ) : null}
      </AdminPageHeader>

      {/* A key per saved version, so the fields show what was stored after a save. */}
      <Form
        method="post"
        encType="multipart/form-data"
        className="card max-w-3xl space-y-5 p-4 sm:p-6"
        key={JSON.stringify(loaderData.values)}
        noValidate
      >
        <ErrorSummary errors={errors} />
        <TextField label="Name" name="name" defaultValue={values.name} error={errors?.name} required maxLength={120} />
        <TextField
          label="Slug"
          name="slug"
          defaultValue={values.slug}
          error={errors?.slug}
          maxLength={80}
          hint="The product's web address: /product/your-slug. Leave empty to make it from the name. Old addresses keep working."
        />
        <SelectField label="Kind" name="kind" defaultValue={values.kind} error={errors?.kind} options={PRODUCT_KINDS} />
        <div className="grid gap-5 sm:grid-cols-2">
          <RandField
            label="Price (R)"
            name="price"
            defaultValue={values.price}
            error={errors?.price}
            hint="e.g. 450, 450,00 or 1 500"
            rules={PRODUCT_PRICE_RULES}
            confirmName="confirmPrice"
            confirmCents={confirm?.price}
          />
          <TextField
            label="Price on request"
            name="priceText"
            defaultValue={values.priceText}
            error={errors?.priceText}
            maxLength={60}
            hint="Shown instead of a price when Price is empty, e.g. Contact Us"
          />
        </div>
        <TextAreaField
          label="Description"
          name="description"
          defaultValue={values.description}
          error={errors?.description}
          required
          rows={6}
        />
        <div className="grid gap-5 sm:grid-cols-2">
          <TextField
            label="Stock"
            name="stock"
            defaultValue={values.stock}
            error={errors?.stock}
            inputMode="numeric"
            hint={
              loaderData.options.length
                ? `Not used while it sells by ${loaderData.options.join(" and ")}: each row has its own stock.`
                : "Units left to sell. Leave empty if not tracked; 0 shows SOLD OUT."
            }
          />
          <TextField
            label="Sort order"
            name="sortOrder"
            defaultValue={values.sortOrder}
            error={errors?.sortOrder}
            inputMode="numeric"
            hint="Lower numbers come first among equal prices."
          />
        </div>
        {id !== null ? (
          <p className="text-sm">
            <Link to={`/admin/products/${id}/options`} className="link font-semibold">
              Sizes and colours
            </Link>
            {loaderData.options.length
              ? `: sells by ${loaderData.options.join(" and ")}, with stock per row.`
              : ": give it sizes or colours, each with its own stock."}
          </p>
        ) : null}
        <CheckboxField
          label="Visible"
          name="visible"
          defaultChecked={values.visible}
          error={errors?.visible}
          hint="Hidden products stay reachable by their address but are not listed."
        />
        <CheckboxField
          label="New"
          name="markNew"
          defaultChecked={values.markNew}
          error={errors?.markNew}
          hint={newHint(loaderData.newUntil)}
        />
        <PhotoPicker initial={values.photos} {...photoPickerErrors(errors, values.photos)} />
        <button type="submit" name="intent" value="save" className="btn-primary" disabled={saving}>
          {saving ? "Saving..." : id === null ? "Add product" : "Save product"}
        </button>
      </Form>

      {id !== null ? (
        <ConfirmDelete
          summary="Delete this product"
          explanation="A product that has been ordered is archived instead: hidden from the shop and kept for its orders."
          name={loaderData.values.name}
        />
      ) : null}
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  seo({
    title: loaderData?.id ? `Edit ${loaderData.values.name}` : "New product",
    description: "Edit a product.",
    path: "/admin/products",
    siteUrl: siteUrlFrom(matches),
    noindex: true,
  });

export function ErrorBoundary() {
  return <AdminNotFound title="Product not found" backTo="/admin/products" backLabel="All products" />;
}
