import type { IncomingMessage, ServerResponse } from "node:http";
import { MAX_ANALYTICS_BODY_BYTES } from "~/analytics/event-schema";
import { ingestAnalyticsPost, type AnalyticsReply } from "~/analytics/ingest-request.server";
import { setSecurityHeaders, type HeaderTemplate } from "./page-cache";
import type { Runtime } from "./runtime";

/**
 * POST /api/analytics answered before Express and React Router: the site's busiest endpoint (one
 * post per page view) spent most of its time in routing and Request/Response conversion, not in
 * storing the event. Only the plain case is taken here: the exact path, no cookie (so never a
 * signed-in admin, whose views are dropped) and a valid Content-Length within the event limit.
 * Everything else returns false and goes through Express to the route, which gives the same answers
 * through the same `ingestAnalyticsPost`. See docs/decisions/062-analytics-group-commit.md.
 */
export function createAnalyticsFastPath(
  runtime: Runtime,
  securityHeaders: HeaderTemplate,
  clientAddress: (req: IncomingMessage) => string,
) {
  return function tryIngest(req: IncomingMessage, res: ServerResponse): boolean {
    if (req.method !== "POST" || req.url !== "/api/analytics") return false;
    if (req.headers.cookie !== undefined || req.headers.authorization !== undefined) return false;
    if (req.headers["transfer-encoding"] !== undefined) return false;
    const length = Number(req.headers["content-length"]);
    if (!/^\d+$/.test(req.headers["content-length"] ?? "") || length > MAX_ANALYTICS_BODY_BYTES) return false;

    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("error", () => res.destroy());
    req.on("end", () => {
      ingestAnalyticsPost({
        db: runtime.database.db,
        now: runtime.clock.now(),
        body: Buffer.concat(chunks, length),
        userAgent: req.headers["user-agent"] ?? "",
        clientAddress: clientAddress(req),
        isAdmin: async () => false,
      }).then(
        (reply) => answer(res, reply, securityHeaders),
        (error: unknown) => {
          console.error(error);
          answer(res, { status: 500, body: { error: "Unexpected server error" } }, securityHeaders);
        },
      );
    });
    return true;
  };
}

function answer(
  res: ServerResponse,
  reply: AnalyticsReply | { status: 500; body: { error: string } },
  securityHeaders: HeaderTemplate,
) {
  if (res.destroyed) return;
  setSecurityHeaders(res, securityHeaders);
  res.setHeader("Cache-Control", "no-store");
  if (reply.status === 503) res.setHeader("Retry-After", "30");
  if (!reply.body) {
    res.writeHead(reply.status).end();
    return;
  }
  const body = JSON.stringify(reply.body);
  res
    .writeHead(reply.status, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) })
    .end(body);
}
