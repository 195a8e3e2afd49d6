import { redirect } from "react-router";
import { assertSameOrigin } from "~/auth/cookies.server";
import { destroyMemberSession } from "~/memberships/member-session.server";
import type { Route } from "./+types/account-sign-out";

/** Ends the member's session (the row is deleted, the cookie cleared) and shows the sign-in form. */
export async function action({ request, context }: Route.ActionArgs) {
  assertSameOrigin(request, context);
  throw redirect("/account", {
    headers: { "Set-Cookie": await destroyMemberSession(request, context), "Cache-Control": "private, no-store" },
  });
}

/** A GET never signs anyone out (a prefetch or an image tag could); it goes back to the page. */
export function loader() {
  throw redirect("/account");
}
