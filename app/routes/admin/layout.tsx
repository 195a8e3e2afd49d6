import { data, Outlet } from "react-router";
import { readToastCookie } from "~/admin/flash-toast.server";
import { requireAdmin } from "~/admin/session.server";
import { AdminShell } from "~/components/admin/AdminShell";
import { ADMIN_APP_LINKS } from "~/lib/home-screen-links";
import { ActionToast } from "~/components/ui/toast";
import type { Route } from "./+types/layout";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
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
