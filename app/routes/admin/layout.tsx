import { data, Outlet } from "react-router";
import { readToastCookie } from "~/admin/flash-toast.server";
import { adminGuard } from "~/admin/guard.server";
import { AdminShell } from "~/components/admin/AdminShell";
import { ADMIN_APP_LINKS } from "~/lib/home-screen-links";
import { ActionToast } from "~/components/ui/toast";
import type { Route } from "./+types/layout";

/** The session check for every admin page, action and the sign-out, before any of their handlers. */
export const middleware: Route.MiddlewareFunction[] = [adminGuard("page")];

export async function loader({ request }: Route.LoaderArgs) {
  const { toast, clear } = readToastCookie(request);
  const headers = new Headers({ "Cache-Control": "private, no-store" });
  if (clear) headers.append("Set-Cookie", clear);
  return data({ toast }, { headers });
}

export const links: Route.LinksFunction = () => ADMIN_APP_LINKS;

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  return (
    <AdminShell>
      <Outlet />
      <ActionToast message={loaderData.toast} />
    </AdminShell>
  );
}
