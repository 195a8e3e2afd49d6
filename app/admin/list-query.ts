/** A positive page number from the query string, 1 when absent or malformed. */
export function pageParam(search: URLSearchParams): number {
  const page = Number(search.get("page") ?? "1");
  return Number.isSafeInteger(page) && page > 0 ? page : 1;
}

/** A query string value cut to a sane length (a search box, a filter). */
export const textParam = (search: URLSearchParams, name: string, max = 100) => (search.get(name) ?? "").slice(0, max);
