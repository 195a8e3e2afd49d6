import { Form } from "react-router";

/** A dashboard section with its heading and a Refresh button (a GET of the same view, so it works without JS). */
export function Panel({
  title,
  period,
  children,
  actions,
}: {
  title: string;
  period: string;
  children: React.ReactNode;
  actions?: React.ReactNode;
}) {
  return (
    <section className="card p-4 sm:p-6" aria-label={title}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 className="text-xl font-semibold">{title}</h2>
        <div className="flex flex-wrap items-center gap-2">
          {actions}
          <Form method="get" action="/admin" preventScrollReset>
            <input type="hidden" name="period" value={period} />
            <button type="submit" className="btn-outline min-h-11 px-4 py-1.5 text-sm">
              Refresh<span className="sr-only"> {title}</span>
            </button>
          </Form>
        </div>
      </div>
      <div className="mt-4">{children}</div>
    </section>
  );
}

export function StatusBadge({ status }: { status: string }) {
  // The spec: completed (here: paid) is the default badge, failed the destructive one, the rest secondary.
  const style =
    status === "paid" || status === "completed"
      ? "bg-ink text-cream"
      : status === "failed"
        ? "bg-red-800 text-white"
        : "bg-cream-deep text-ink";
  return <span className={`inline-block rounded-full px-2.5 py-0.5 text-xs font-semibold ${style}`}>{status}</span>;
}
