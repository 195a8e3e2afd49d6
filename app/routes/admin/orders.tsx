import { Link, useSearchParams } from "react-router";
import { formatDateTime } from "~/admin/format-date";
import { AdminPageHeader, adminPageClass } from "~/components/admin/AdminShell";
import { DataList } from "~/components/admin/DataList";
import { AdminFilterForm, FilterDate, FilterSearch, FilterSelect, FilterSubmit } from "~/components/admin/FilterForm";
import { OrderStatus } from "~/components/admin/OrderStatus";
import { Pagination } from "~/components/admin/Pagination";
import { Money } from "~/components/admin/Money";
import { seo, siteUrlFrom } from "~/lib/seo";
import { fulfilmentWaits, fulfilmentWords, refundWords } from "~/orders/fulfilment-words";
import { ORDER_TYPES, readOrderQuery } from "~/orders/order-list-query";
import { listEventChoices, listOrdersForAdmin } from "~/orders/orders-admin.server";
import type { Route } from "./+types/orders";

export async function loader({ request, context }: Route.LoaderArgs) {
  const query = readOrderQuery(new URL(request.url).searchParams);
  const [list, events] = await Promise.all([listOrdersForAdmin(context.db, query), listEventChoices(context.db)]);
  return { query, events, ...list };
}

const STATUS_CHOICES = [
  { value: "", label: "Any status but expired" },
  { value: "attention", label: "Needs attention" },
  { value: "to-post", label: "To post or hand over" },
  { value: "refund-pending", label: "Refund pending" },
  { value: "paid", label: "Paid" },
  { value: "pending", label: "Pending" },
  { value: "failed", label: "Failed" },
  { value: "cancelled", label: "Cancelled" },
  { value: "expired", label: "Expired" },
  { value: "partially_refunded", label: "Partly refunded" },
  { value: "refunded", label: "Refunded" },
];
const TYPE_LABELS: Record<string, string> = {
  product: "Product",
  service: "Service",
  membership: "Membership",
  workshop: "Workshop",
  ticket: "Ticket",
};

export default function AdminOrders({ loaderData }: Route.ComponentProps) {
  const { orders, query, events, page, pages, total } = loaderData;
  const [search] = useSearchParams();
  const exportSearch = new URLSearchParams(search);
  exportSearch.delete("page");
  return (
    <div className={adminPageClass}>
      <AdminPageHeader title="Orders">
        <a href={`/admin/orders/export?${exportSearch}`} className="btn-outline min-h-11 px-4 py-1.5 text-sm" download>
          Export CSV<span className="sr-only"> of these orders</span>
        </a>
      </AdminPageHeader>

      <AdminFilterForm label="Orders" layout="grid" className="lg:grid-cols-3">
        <FilterSearch
          id="order-search"
          defaultValue={query.q}
          placeholder="Reference, name, email or phone"
          className="sm:col-span-2 lg:col-span-3"
        />
        <FilterSelect
          id="order-status"
          name="status"
          label="Status"
          defaultValue={query.status}
          choices={STATUS_CHOICES}
        />
        <FilterSelect
          id="order-type"
          name="type"
          label="Type"
          defaultValue={query.type}
          choices={[{ value: "", label: "Any type" }, ...ORDER_TYPES.map((t) => ({ value: t, label: TYPE_LABELS[t] }))]}
        />
        <FilterSelect
          id="order-event"
          name="event"
          label="Event"
          defaultValue={query.event}
          choices={[{ value: "", label: "Any event" }, ...events.map((e) => ({ value: e.id, label: e.title }))]}
        />
        <FilterDate id="order-from" name="from" label="From" defaultValue={query.from} />
        <FilterDate id="order-to" name="to" label="To" defaultValue={query.to} />
        <FilterSubmit className="flex items-end" wide />
      </AdminFilterForm>

      <p className="text-sm text-ink-soft" aria-live="polite">
        {total === 1 ? "1 order" : `${total.toLocaleString("en-ZA")} orders`}
      </p>

      <DataList
        caption="Orders"
        rows={orders}
        rowKey={(o) => o.id}
        empty="No orders match."
        columns={[
          { header: "Date", cell: (o) => formatDateTime(o.createdAt) },
          {
            header: "Reference",
            primary: true,
            cell: (o) => (
              <Link to={`/admin/orders/${o.id}`} className="link whitespace-nowrap font-mono font-semibold">
                {o.reference}
              </Link>
            ),
          },
          {
            header: "Customer",
            cell: (o) => (
              <>
                <span className="font-semibold">
                  {o.firstName} {o.lastName}
                </span>
                <span className="block break-all text-ink-soft">{o.email}</span>
              </>
            ),
          },
          { header: "Item", cell: (o) => o.itemName },
          { header: "Amount", cell: (o) => <Money cents={o.amountCents} /> },
          {
            header: "Status",
            cell: (o) => (
              <OrderStatus
                status={o.status}
                needsAttention={o.needsAttention}
                refundPending={o.refundPending}
                refund={refundWords(o)}
              />
            ),
          },
          {
            header: "Fulfilment",
            cell: (o) => (fulfilmentWaits(o) ? <strong>{fulfilmentWords(o)}</strong> : fulfilmentWords(o)),
          },
        ]}
      />
      <Pagination page={page} pages={pages} search={search} label="Orders" />
    </div>
  );
}

export const meta: Route.MetaFunction = ({ matches }) =>
  seo({
    title: "Orders",
    description: "Every order.",
    path: "/admin/orders",
    siteUrl: siteUrlFrom(matches),
    noindex: true,
  });
