import { isbot } from "isbot";
import { isAdminRequest } from "~/admin/session.server";
import { analyticsEventSchema, MAX_ANALYTICS_BODY_BYTES } from "~/analytics/event-schema";
import { recordAnalyticsEvent, sessionEventCap } from "~/analytics/ingest.server";
import { readCappedBody } from "~/lib/capped-body.server";
import type { Route } from "./+types/api.analytics";

const json = (body: unknown, status: number) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json", "Cache-Control": "no-store" },
  });
const noContent = () => new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } });

export function loader() {
  return json({ error: "Use POST to send analytics events" }, 405);
}

/**
 * POST /api/analytics: one event from app/analytics/track.ts (sendBeacon sends it as a Blob, so the
 * content type varies: the body is read as text and parsed here). 204 when stored or deliberately
 * dropped (bots, a signed-in admin); 400 malformed; 413 too large; 429 over the per-session cap.
 * No IP address is stored and no cookie is set.
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return json({ error: "Use POST to send analytics events" }, 405);
  const body = await readCappedBody(request, MAX_ANALYTICS_BODY_BYTES);
  if (body === null) return json({ error: "Event too large" }, 413);
  const text = new TextDecoder().decode(body);

  let event: unknown;
  try {
    event = JSON.parse(text);
  } catch {
    return json({ error: "Body must be a JSON object" }, 400);
  }
  const parsed = analyticsEventSchema.safeParse(event);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join(".") || "body"}: ${issue.message}`);
    return json({ error: "Invalid analytics event", problems }, 400);
  }
  if (isbot(request.headers.get("user-agent") ?? "")) return noContent();
  if (await isAdminRequest(request, context)) return noContent();

  const now = context.clock.now();
  if (!sessionEventCap.allow(parsed.data.sessionId, now)) {
    return json({ error: "Too many events from this session; try again in a minute" }, 429);
  }
  await recordAnalyticsEvent(context.db, parsed.data, now);
  return noContent();
}
