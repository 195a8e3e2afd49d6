import { data, redirect, type MiddlewareFunction } from "react-router";
import type { AppContext } from "~/context.server";
import { assertSameOrigin } from "~/auth/cookies.server";
import { isAdminRequest } from "./session.server";

/** How a refusal looks: pages go to the sign-in page; data endpoints (CSV, JSON, uploads) answer 401. */
type Refusal = "page" | "api";

/** A live session, and for anything but GET/HEAD a same-origin request; otherwise a refusal. */
async function requireAdmin(
  request: Request,
  context: Pick<AppContext, "db" | "clock" | "config">,
  refusal: Refusal,
): Promise<void> {
  const method = request.method.toUpperCase();
  if (method !== "GET" && method !== "HEAD") assertSameOrigin(request, context);
  if (await isAdminRequest(request, context)) return;
  if (refusal === "api") {
    throw data({ error: "Authentication required" }, { status: 401, headers: { "Cache-Control": "no-store" } });
  }
  throw redirect("/admin/login");
}

/**
 * The one gate in front of every admin loader, action and data endpoint (decision 110): the admin
 * layout's middleware and the data endpoints' layout's run it before any of their routes' handlers,
 * so no handler under /admin (but the sign-in page) can forget it.
 */
export function adminGuard(refusal: Refusal): MiddlewareFunction<Response> {
  return async ({ request, context }, next) => {
    await requireAdmin(request, context, refusal);
    return next();
  };
}
