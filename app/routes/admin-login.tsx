import { data, Form, redirect, useNavigation } from "react-router";
import { textFields, validateForm } from "~/lib/form";
import { LOGIN_FIELDS, loginSchema } from "~/admin/login-schema";
import { attemptAdminLogin, lockoutMessage } from "~/admin/login.server";
import { assertSameOrigin } from "~/auth/cookies.server";
import { readToastCookie, setToastCookie } from "~/admin/flash-toast.server";
import { createAdminSession, isAdminRequest } from "~/admin/session.server";
import { ADMIN_APP_LINKS } from "~/lib/home-screen-links";
import { ActionToast, type ToastMessage } from "~/components/ui/toast";
import { seo, siteUrlFrom } from "~/lib/seo";
import type { Route } from "./+types/admin-login";

export async function loader({ request, context }: Route.LoaderArgs) {
  if (await isAdminRequest(request, context)) throw redirect("/admin");
  // The sign-out's toast ("Logged out"), from the one flash cookie every admin redirect uses.
  const { toast, clear } = readToastCookie(request);
  return data({ toast }, clear ? { headers: { "Set-Cookie": clear } } : undefined);
}

export const links: Route.LinksFunction = () => ADMIN_APP_LINKS;

export async function action({ request, context }: Route.ActionArgs) {
  assertSameOrigin(request, context);
  const form = await request.formData();
  const checked = validateForm(loginSchema, textFields(form, LOGIN_FIELDS));
  const password = checked.ok ? checked.data.password : "";
  const userAgent = request.headers.get("user-agent");
  const result = await attemptAdminLogin(context, password, userAgent);
  if (result.status === "success") {
    const headers = new Headers();
    headers.append("Set-Cookie", await createAdminSession(context, userAgent));
    headers.append(
      "Set-Cookie",
      setToastCookie({ title: "Login successful", description: "Welcome to the admin panel" }),
    );
    throw redirect("/admin", { headers });
  }
  const toast: ToastMessage =
    result.status === "locked"
      ? {
          title: "Too many failed sign-ins",
          description: lockoutMessage(result.retryAt, context.clock.now()),
          variant: "destructive",
        }
      : { title: "Invalid password", description: "Please check your password and try again", variant: "destructive" };
  return data({ toast }, { status: result.status === "locked" ? 429 : 401 });
}

export default function AdminLogin({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const checking = navigation.state !== "idle" && navigation.formAction === "/admin/login";
  const toast = actionData?.toast ?? loaderData.toast;
  return (
    <section className="container-page flex justify-center py-16 sm:py-24">
      <div className="card w-full max-w-md p-6 sm:p-8">
        <h1 className="text-3xl font-semibold">Admin Login</h1>
        <p className="mt-2 text-ink-soft">Sign in to view analytics, checkouts and messages.</p>
        <Form method="post" action="/admin/login" className="mt-6 space-y-4">
          <div>
            <label htmlFor="admin-password" className="block font-semibold">
              Password
            </label>
            <input
              id="admin-password"
              name="password"
              type="password"
              autoComplete="current-password"
              required
              className="mt-1 block min-h-11 w-full rounded-xl border border-ink/30 bg-white px-3 py-2"
            />
          </div>
          <button type="submit" className="btn-primary w-full" disabled={checking}>
            {checking ? "Signing in..." : "Sign In"}
          </button>
        </Form>
      </div>
      <ActionToast message={toast} />
    </section>
  );
}

export const meta: Route.MetaFunction = ({ matches }) =>
  seo({
    title: "Admin Login",
    description: "Sign in to the Honey Bee admin panel.",
    path: "/admin/login",
    siteUrl: siteUrlFrom(matches),
    noindex: true,
  });
