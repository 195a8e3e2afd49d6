import { data } from "react-router";

/** A positive page number from the query string, 1 when absent or malformed. */
export function pageParam(search: URLSearchParams): number {
  const page = Number(search.get("page") ?? "1");
  return Number.isSafeInteger(page) && page > 0 ? page : 1;
}

/** The answer to a query string value that no column can hold: a 400, as for any other bad input. */
export const NUL_IN_SEARCH_MESSAGE = "A search cannot contain a NUL character (%00).";

/**
 * A query string value cut to a sane length (a search box, a filter). A NUL byte is refused with 400:
 * PostgreSQL text cannot hold one, so the query would fail with a 500.
 */
export function textParam(search: URLSearchParams, name: string, max = 100): string {
  const value = (search.get(name) ?? "").slice(0, max);
  if (value.includes("\0")) throw data(NUL_IN_SEARCH_MESSAGE, { status: 400 });
  return value;
}
