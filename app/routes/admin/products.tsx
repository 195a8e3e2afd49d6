import { Link, useSearchParams } from "react-router";
import { listProductsForAdmin, type ProductListQuery } from "~/catalog/product-admin.server";
import { PRODUCT_KINDS } from "~/catalog/product-schema";
import { AdminPageHeader, adminPageClass } from "~/components/admin/AdminShell";
import { DataList } from "~/components/admin/DataList";
import { AdminFilterForm, FilterSearch, FilterSelect, FilterSubmit } from "~/components/admin/FilterForm";
import { Pagination } from "~/components/admin/Pagination";
import { Picture } from "~/components/ui/Picture";
import { seo, siteUrlFrom } from "~/lib/seo";
import type { Route } from "./+types/products";
import { pageParam, textParam } from "~/admin/list-query";

const KIND_VALUES = new Set(PRODUCT_KINDS.map((k) => k.value));

function readQuery(url: URL): ProductListQuery {
  const kind = url.searchParams.get("kind") ?? "";
  return {
    q: textParam(url.searchParams, "q"),
    kind: KIND_VALUES.has(kind as never) ? (kind as ProductListQuery["kind"]) : "",
    page: pageParam(url.searchParams),
  };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const query = readQuery(new URL(request.url));
  return { query, ...(await listProductsForAdmin(context.db, query, context.clock.now())) };
}

const kindLabel = (kind: string) => PRODUCT_KINDS.find((k) => k.value === kind)?.label ?? kind;

export default function AdminProducts({ loaderData }: Route.ComponentProps) {
  const { products, query, page, pages, total } = loaderData;
  const [search] = useSearchParams();
  return (
    <div className={adminPageClass}>
      <AdminPageHeader title="Products">
        <Link to="/admin/products/new" className="btn-primary min-h-11 px-4 py-1.5">
          New product
        </Link>
      </AdminPageHeader>

      <AdminFilterForm label="Products">
        <FilterSearch id="product-search" defaultValue={query.q} placeholder="Name or slug" />
        <FilterSelect
          id="product-kind"
          name="kind"
          label="Kind"
          defaultValue={query.kind}
          choices={[{ value: "", label: "All kinds" }, ...PRODUCT_KINDS]}
        />
        <FilterSubmit />
      </AdminFilterForm>

      <p className="text-sm text-ink-soft" aria-live="polite">
        {total === 1 ? "1 product" : `${total} products`}
      </p>

      <DataList
        caption="Products"
        rows={products}
        rowKey={(p) => p.id}
        empty="No products match. Try another search, or add a new product."
        columns={[
          {
            header: "Photo",
            media: true,
            cell: (p) =>
              p.image ? (
                <Picture
                  src={p.image}
                  alt={p.imageAlt}
                  sizes="64px"
                  width={64}
                  height={80}
                  className="h-20 w-16 rounded-lg object-cover"
                />
              ) : (
                <span className="text-ink-soft">No photo</span>
              ),
          },
          {
            header: "Name",
            primary: true,
            cell: (p) => (
              <Link to={`/admin/products/${p.id}`} className="link font-semibold">
                {p.name}
              </Link>
            ),
          },
          { header: "Kind", cell: (p) => kindLabel(p.kind) },
          { header: "Price", cell: (p) => p.price },
          {
            header: "Stock left",
            cell: (p) =>
              p.left === null
                ? "Not tracked"
                : p.left === 0
                  ? "Sold out"
                  : `${p.left}${p.held ? ` (${p.held} held)` : ""}`,
          },
          { header: "Visible", cell: (p) => (p.visible ? "Yes" : "Hidden") },
        ]}
      />
      <Pagination page={page} pages={pages} search={search} label="Products" />
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) =>
  seo({
    title: "Products",
    description: "The shop's products and services.",
    path: "/admin/products",
    siteUrl: siteUrlFrom(matches),
    noindex: true,
  });
