import { PassThrough, pipeline } from "node:stream";
import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import type { AppLoadContext, EntryContext, HandleErrorFunction } from "react-router";
import { isRouteErrorResponse, ServerRouter } from "react-router";
import stylesheet from "./app.css?inline";
import { PAGE_VIEW_SCRIPT } from "./analytics/page-view-script.server";
import { isUntrackedPath } from "./analytics/untracked-paths";
import { isDatabaseUnavailable } from "./db/errors.server";
import { acceptsGzip, encodeDocument, inlineStylesheet } from "./lib/document-encoding.server";
import { prepareDocument, rewriteStream } from "./lib/document-rewrite.server";

export const streamTimeout = 5_000;

// Written into every document's head (see app/lib/document-rewrite.server.ts): ~10 KB gzipped,
// encoded and compressed once (app/lib/document-encoding.server.ts).
const inlineSheet = inlineStylesheet(stylesheet);

/** Logs server errors, and notes a database outage so that the page answers 503, not 500. */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (isDatabaseUnavailable(error)) (context as AppLoadContext).databaseUnavailable = true;
  if (request.signal.aborted) return;
  const cause = isRouteErrorResponse(error) ? ((error as { error?: unknown }).error ?? error) : error;
  console.error(cause);
};

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: AppLoadContext,
) {
  // A page that failed because the database is down is a temporary outage, not a bug: say 503.
  if (loadContext.databaseUnavailable) {
    responseStatusCode = 503;
    responseHeaders.set("Retry-After", "30");
    responseHeaders.set("Cache-Control", "no-store");
  }

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const userAgent = request.headers.get("user-agent");
    // Crawlers and no-JavaScript clients get the whole document at once.
    const readyOption = (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? "onAllReady" : "onShellReady";
    const nonce = loadContext.nonce;
    // A visit is counted by the page's own script. Not on the owner's pages, and not on a page the
    // root's error boundary drew (the app would not have counted it either: its tracker is not there).
    const countsAsVisit =
      !isUntrackedPath(new URL(request.url).pathname) && !routerContext.staticHandlerContext.errors?.root;

    const { pipe, abort } = renderToPipeableStream(
      <ServerRouter context={routerContext} url={request.url} nonce={nonce} />,
      {
        nonce,
        [readyOption]() {
          shellRendered = true;
          const body = new PassThrough();
          const gzip = acceptsGzip(request.headers.get("accept-encoding"));
          const document = rewriteStream((html) =>
            encodeDocument(
              prepareDocument(html, {
                nonce,
                holdScripts: !import.meta.env.DEV,
                pageViewScript: countsAsVisit ? PAGE_VIEW_SCRIPT : null,
              }),
              inlineSheet,
              gzip,
            ),
          );
          // pipeline, not pipe: an aborted render must end the response, not leave it hanging.
          pipeline(body, document, () => {});
          const stream = createReadableStreamFromReadable(document);
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          // Already compressed: the compression middleware sends it as it is (decision 148).
          if (gzip) responseHeaders.set("Content-Encoding", "gzip");
          responseHeaders.append("Vary", "Accept-Encoding");
          resolve(new Response(stream, { headers: responseHeaders, status: responseStatusCode }));
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) console.error(error);
        },
      },
    );
    setTimeout(abort, streamTimeout + 1000);
  });
}
