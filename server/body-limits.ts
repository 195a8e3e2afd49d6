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
