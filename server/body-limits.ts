import type { RequestHandler } from "express";

/** The largest request body any endpoint accepts; endpoints set tighter limits of their own. */
export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * Refuses oversized bodies before anything reads them: a declared length over the cap gets 413, and
 * a body without a declared length (chunked) gets 411, since browsers, sendBeacon and webhook senders
 * always declare one. Keeping a running count on a chunked stream would need to consume it first.
 */
export const limitRequestBodies: RequestHandler = (req, res, next) => {
  if (req.method === "GET" || req.method === "HEAD" || req.method === "OPTIONS") return next();
  const length = req.headers["content-length"];
  if (length === undefined) {
    if (req.headers["transfer-encoding"]) {
      res.status(411).type("text/plain").send("Length Required: send a Content-Length header.");
      return;
    }
    return next();
  }
  const bytes = Number(length);
  if (!Number.isSafeInteger(bytes) || bytes < 0) {
    res.status(400).type("text/plain").send("Bad Request: invalid Content-Length.");
    return;
  }
  if (bytes > MAX_BODY_BYTES) {
    res.status(413).type("text/plain").send(`Payload Too Large: at most ${MAX_BODY_BYTES} bytes.`);
    return;
  }
  next();
};

/**
 * Page actions take HTML forms only: every <Form> and fetcher here posts
 * application/x-www-form-urlencoded (the browser's default encoding, and React Router's). Anything
 * else sent to a page (JSON, broken multipart, no body type at all) would make `request.formData()`
 * throw inside an action; refusing it here gives one clear 415 for every page. Endpoints under /api/
 * read their own formats (JSON events, signed webhooks).
 */
export const requireFormBodies: RequestHandler = (req, res, next) => {
  if (req.method === "GET" || req.method === "HEAD" || req.method === "OPTIONS" || req.path.startsWith("/api/")) return next();
  const type = (req.headers["content-type"] ?? "").split(";", 1)[0]!.trim().toLowerCase();
  if (type === "application/x-www-form-urlencoded") return next();
  res
    .status(415)
    .type("text/plain")
    .send("Unsupported Media Type: pages accept HTML form posts (application/x-www-form-urlencoded).");
};
