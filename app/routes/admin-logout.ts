import { redirect } from "react-router";
import { setToastCookie } from "~/admin/flash-toast.server";
import { destroyAdminSession } from "~/admin/session.server";
import type { Route } from "./+types/admin-logout";

/** Signing out is a POST (a link or prefetch must not end the session); a GET goes back to the dashboard. */
export async function loader() {
  return redirect("/admin");
}

export async function action({ request, context }: Route.ActionArgs) {
  const headers = new Headers();
  headers.append("Set-Cookie", await destroyAdminSession(request, context));
  headers.append(
    "Set-Cookie",
    setToastCookie({ title: "Logged out", description: "You have been logged out successfully" }),
  );
  return redirect("/admin/login", { headers });
}
