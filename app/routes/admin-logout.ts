import { redirect } from "react-router";
import { destroyAdminSession, setFlashCookie } from "~/admin/session.server";
import type { Route } from "./+types/admin-logout";

/** Signing out is a POST (a link or prefetch must not end the session); a GET goes back to the dashboard. */
export async function loader() {
  return redirect("/admin");
}

export async function action({ request, context }: Route.ActionArgs) {
  const headers = new Headers();
  headers.append("Set-Cookie", await destroyAdminSession(request, context));
  headers.append("Set-Cookie", setFlashCookie("logout"));
  return redirect("/admin/login", { headers });
}
