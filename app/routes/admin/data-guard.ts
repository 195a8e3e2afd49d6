import { adminGuard } from "~/admin/guard.server";
import type { Route } from "./+types/data-guard";

/**
 * A layout without a page of its own, around the admin's CSV downloads and data endpoints: the
 * admin layout's session check, answered with a 401 (a download or a script has no page to show).
 */
export const middleware: Route.MiddlewareFunction[] = [adminGuard("api")];
