import { handlePaymentWebhook } from "~/orders/payment-webhook.server";
import type { Route } from "./+types/api.webhooks.yoco";

/** Webhooks are POSTed; anything else is told so. */
export function loader() {
  return new Response("Method Not Allowed", { status: 405, headers: { Allow: "POST" } });
}

export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return new Response("Method Not Allowed", { status: 405, headers: { Allow: "POST" } });
  return handlePaymentWebhook(request, context);
}
