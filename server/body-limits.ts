import type { RequestHandler } from "express";

/** The largest request body any endpoint accepts, but the owner's uploads below; endpoints set tighter limits of their own. */
export const MAX_BODY_BYTES = 1024 * 1024;
/** POST /admin/photos: one photo of at most 20 MB (app/media/photo-schema.ts) and the multipart framing. */
export const MAX_PHOTO_UPLOAD_BYTES = 25 * 1024 * 1024;
/** Any other owner's form with photos, sent without JavaScript: ten 20 MB photos and the fields. */
export const MAX_ADMIN_MULTIPART_BYTES = 210 * 1024 * 1024;

const MB = 1024 * 1024;

// Plain segments only, and React Router's `.data` suffix (a <Form> posted by JavaScript): a dot or an
// escape elsewhere could make the router resolve the path outside /admin/ (/admin/%2e%2e/contact is
// /contact to the URL parser) after this check let a large body through.
const OWNER_FORM_PATH = /^\/admin\/[\w-]+(?:\/[\w-]+)*(?:\.data)?\/?$/i;

const mediaType = (header: string | undefined) => (header ?? "").split(";", 1)[0]!.trim().toLowerCase();

/** Multipart bodies (forms with files) are for the signed-in owner's pages under /admin/ only, but the sign-in page. */
export function acceptsMultipart(path: string): boolean {
  return OWNER_FORM_PATH.test(path) && !/^\/admin\/login(?:\.data)?\/?$/i.test(path);
}

/** The largest body a request to `path` with this Content-Type may declare. */
export function bodyLimitFor(path: string, contentType: string | undefined): number {
  if (mediaType(contentType) !== "multipart/form-data" || !acceptsMultipart(path)) return MAX_BODY_BYTES;
  return /^\/admin\/photos\/?$/i.test(path) ? MAX_PHOTO_UPLOAD_BYTES : MAX_ADMIN_MULTIPART_BYTES;
}

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
  const limit = bodyLimitFor(req.path, req.headers["content-type"]);
  if (bytes > limit) {
    const readable = limit > MAX_BODY_BYTES ? ` (${limit / MB} MB)` : "";
    res.status(413).type("text/plain").send(`Payload Too Large: at most ${limit} bytes${readable}.`);
    return;
  }
  next();
};

/**
 * Page actions take HTML forms only: every <Form> and fetcher here posts
 * application/x-www-form-urlencoded (the browser's default encoding, and React Router's), and the
 * owner's pages under /admin/ may also post multipart/form-data (forms with photos). Anything
 * else sent to a page (JSON, broken multipart, no body type at all) would make `request.formData()`
 * throw inside an action; refusing it here gives one clear 415 for every page. Endpoints under /api/
 * read their own formats (JSON events, signed webhooks).
 */
export const requireFormBodies: RequestHandler = (req, res, next) => {
  if (req.method === "GET" || req.method === "HEAD" || req.method === "OPTIONS" || req.path.startsWith("/api/"))
    return next();
  const type = mediaType(req.headers["content-type"]);
  if (type === "application/x-www-form-urlencoded") return next();
  if (type === "multipart/form-data" && acceptsMultipart(req.path)) return next();
  res
    .status(415)
    .type("text/plain")
    .send("Unsupported Media Type: pages accept HTML form posts (application/x-www-form-urlencoded).");
};

/**
 * A handler may answer before reading the whole body: an anonymous upload gets 401, a refused photo
 * its message. React Router's adapter has begun reading the request, so Node does not discard the
 * rest itself, and with the adapter no longer pulling, the socket stalls: the next request on that
 * keep-alive connection would wait for ever. Once the answer is sent, the rest is read and dropped
 * (never more than the Content-Length this module allowed).
 */
export const discardUnreadBodies: RequestHandler = (req, res, next) => {
  if (req.method === "GET" || req.method === "HEAD") return next();
  res.once("finish", () => {
    if (req.complete || req.destroyed) return;
    req.removeAllListeners("data");
    req.resume();
  });
  next();
};
