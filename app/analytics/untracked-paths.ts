/**
 * The owner's pages, /admin and everything under it (its sign-in page too), are never visits to the
 * shop, signed in or not. Case-insensitive because React Router matches routes without regard to case:
 * /Admin/login is the sign-in page as well. Shared by the browser (no page view sent), the document
 * (no page-view script written) and the endpoint (such an event is dropped).
 */
export function isUntrackedPath(pathname: string): boolean {
  return /^\/admin(\/|$)/i.test(pathname);
}
