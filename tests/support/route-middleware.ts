import path from "node:path";
import { fileURLToPath } from "node:url";
import routes from "~/routes";

/**
 * A route's loader or action as React Router calls it: first the middleware of the layouts that
 * app/routes.ts nests it in (outermost first) and its own, then the handler. The admin's session is
 * checked by middleware only (decision 110), so a test of a refusal calls the handler this way.
 */

const APP_DIR = fileURLToPath(new URL("../../app/", import.meta.url));

interface RouteEntry {
  file: string;
  path?: string;
  children?: RouteEntry[];
}
type Handler = "loader" | "action";
type Middleware = (args: unknown, next: () => Promise<unknown>) => unknown;
type RouteModule = Partial<Record<Handler, (args: never) => unknown>> & { middleware?: Middleware[] };

/** Every route in app/routes.ts with its full path and its layouts' files, outermost first. */
export function routeEntries(
  entries = routes as RouteEntry[],
  prefix = "",
  layouts: string[] = [],
): { file: string; path: string; layouts: string[] }[] {
  return entries.flatMap((r) => {
    const full = [prefix, r.path ?? ""].filter(Boolean).join("/");
    return [{ file: r.file, path: full, layouts }, ...routeEntries(r.children ?? [], full, [...layouts, r.file])];
  });
}

export const importRoute = (file: string) =>
  import(/* @vite-ignore */ path.join(APP_DIR, file)) as Promise<RouteModule>;

/** `file` is as app/routes.ts names it ("routes/admin-export.ts"); `args` as React Router passes them. */
export async function callThroughMiddleware(
  file: string,
  handler: Handler,
  args: { request: Request } & Record<string, unknown>,
): Promise<unknown> {
  const entry = routeEntries().find((r) => r.file === file);
  if (!entry) throw new Error(`${file} is not in app/routes.ts`);
  const modules = await Promise.all([...entry.layouts, file].map(importRoute));
  const middleware = modules.flatMap((m) => m.middleware ?? []);
  const own = modules.at(-1)![handler];
  const full = { params: {}, url: new URL(args.request.url), pattern: `/${entry.path}`, ...args };
  const call = (i: number): Promise<unknown> => {
    if (i < middleware.length) return Promise.resolve(middleware[i]!(full, () => call(i + 1)));
    // React Router answers a method the route has no handler for with 405 (once its middleware let it through).
    return own ? Promise.resolve(own(full as never)) : Promise.reject(new Response(null, { status: 405 }));
  };
  return call(0);
}

/** The handler as a function of its arguments, called through its middleware: a drop-in for `route.loader`. */
export const throughMiddleware =
  (file: string, handler: Handler) =>
  (args: never): Promise<unknown> =>
    callThroughMiddleware(file, handler, args);

/** A route module's loader and action as React Router calls them, for `import * as route` in a test. */
export const guardedRoute = (file: string) => ({
  loader: throughMiddleware(file, "loader"),
  action: throughMiddleware(file, "action"),
});
