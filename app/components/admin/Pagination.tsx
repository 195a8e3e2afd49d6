import { Link } from "react-router";

/** Previous / next links that keep the list's other query parameters (search, filters). */
export function Pagination({
  page,
  pages,
  search,
  label,
}: {
  page: number;
  pages: number;
  search: URLSearchParams;
  label: string;
}) {
  if (pages <= 1) return null;
  const href = (n: number) => {
    const next = new URLSearchParams(search);
    next.set("page", String(n));
    return `?${next.toString()}`;
  };
  return (
    <nav aria-label={`${label} pages`} className="flex flex-wrap items-center justify-between gap-3">
      {page > 1 ? (
        <Link to={href(page - 1)} className="btn-outline min-h-11 px-4 py-1.5 text-sm" rel="prev">
          Previous page
        </Link>
      ) : (
        <span />
      )}
      <p className="text-sm text-ink-soft" aria-current="page">
        Page {page} of {pages}
      </p>
      {page < pages ? (
        <Link to={href(page + 1)} className="btn-outline min-h-11 px-4 py-1.5 text-sm" rel="next">
          Next page
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}
