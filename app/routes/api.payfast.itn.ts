import { handlePayfastItn } from "~/orders/payfast-itn.server";
import type { Route } from "./+types/api.payfast.itn";

/** PayFast posts its notifications; anything else is told so. */
export function loader() {
  return new Response("Method Not Allowed", { status: 405, headers: { Allow: "POST" } });
}

export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return new Response("Method Not Allowed", { status: 405, headers: { Allow: "POST" } });
  return handlePayfastItn(request, context);
}
