import type { IncomingMessage } from "node:http";

/**
 * Which requests the page cache (server/page-cache.ts) may answer from memory, and which of those
 * pages show stock: rules on the path, the method and the cookies alone, kept apart from the cache.
 */
/** The public pages, the same for every anonymous visitor. */
const PUBLIC_PATHS = [
  /^\/$/,
  /^\/(styled-collections|consultation-services|events|about|contact|blog|events-gallery|test|sitemap\.xml|robots\.txt)$/,
  /^\/(product|tickets|membership|blog)\/[a-z0-9-]{1,100}$/,
  /^\/workshop\/tablecloth-skirt$/,
];

/**
 * Pages that never show stock or seats: a hold or a sale leaves them valid. Any other page counts
 * as showing stock, so a page that starts to show it is never left stale by omission;
 * tests/integration/stock-version.test.ts sells everything out and checks these pages do not change.
 */
export const STOCK_FREE_PATHS = [
  /^\/$/,
  /^\/(consultation-services|events|about|contact|blog|events-gallery|sitemap\.xml|robots\.txt)$/,
  /^\/blog\/[a-z0-9-]{1,100}$/,
];

export function showsStock(url: string): boolean {
  const path = url.split("?", 1)[0]!;
  return !STOCK_FREE_PATHS.some((pattern) => pattern.test(path));
}

/**
 * The bag's cookies (issue 39) change nothing a cached page shows: no loader of a public page reads
 * them, and the header's count is drawn by the browser from the count cookie. A visitor with a bag
 * and no other cookie is still served from memory.
 */
const PAGE_NEUTRAL_COOKIES = new Set(["hb_bag", "hb_bag_n"]);

export function sendsOnlyPageNeutralCookies(cookie: string | undefined): boolean {
  if (!cookie) return true;
  return cookie.split(";").every((part) => {
    const name = part.split("=", 1)[0]!.trim();
    return name === "" || PAGE_NEUTRAL_COOKIES.has(name);
  });
}

export function isCacheablePage(method: string | undefined, url: string, headers: IncomingMessage["headers"]): boolean {
  if (method !== "GET" && method !== "HEAD") return false;
  if (!sendsOnlyPageNeutralCookies(headers.cookie) || headers.authorization) return false;
  if (url.length > 300) return false;
  const path = url.split("?", 1)[0];
  return PUBLIC_PATHS.some((pattern) => pattern.test(path));
}
