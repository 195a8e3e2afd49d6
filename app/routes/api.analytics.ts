import { isAdminRequest } from "~/admin/session.server";
import { MAX_ANALYTICS_BODY_BYTES } from "~/analytics/event-schema";
import { ingestAnalyticsPost } from "~/analytics/ingest-request.server";
import { readCappedBody } from "~/lib/capped-body.server";
import type { Route } from "./+types/api.analytics";

const json = (body: unknown, status: number) =>
  new Response(JSON.stringify(body), {
    status,
    headers: {
      "Content-Type": "application/json",
      "Cache-Control": "no-store",
      ...(status === 503 ? { "Retry-After": "30" } : {}),
    },
  });

export function loader() {
  return json({ error: "Use POST to send analytics events" }, 405);
}

/**
 * POST /api/analytics: one event. 204 when stored or deliberately dropped (bots, a signed-in admin);
 * 400 malformed; 413 too large; 429 over the per-address or per-session cap; 503 when the database is down.
 * No IP address is stored and no cookie is set. In production most posts never reach this route:
 * server/analytics-fast-path.ts answers cookie-less ones before Express, with the same function.
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return json({ error: "Use POST to send analytics events" }, 405);
  const reply = await ingestAnalyticsPost({
    db: context.db,
    now: context.clock.now(),
    body: await readCappedBody(request, MAX_ANALYTICS_BODY_BYTES),
    userAgent: request.headers.get("user-agent") ?? "",
    clientAddress: context.clientIp,
    isAdmin: () => isAdminRequest(request, context),
  });
  return reply.body
    ? json(reply.body, reply.status)
    : new Response(null, { status: reply.status, headers: { "Cache-Control": "no-store" } });
}
