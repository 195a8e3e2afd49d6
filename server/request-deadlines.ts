import type http from "node:http";
import { readCookieHeader } from "~/auth/cookies.server";
import { adminCookieName, sessionIsValid } from "~/admin/session.server";
import type { Runtime } from "./runtime";

/** How long a request may take to arrive, headers and body (issue 23, decision 079). */
export interface RequestDeadlines {
  /** Everyone without a valid admin session, on every path. */
  anonymousMs: number;
  /** A valid admin session on /admin/ paths: the owner uploads photos from a phone, slowly. */
  adminMs: number;
}

export const DEFAULT_REQUEST_DEADLINES: RequestDeadlines = { anonymousMs: 30_000, adminMs: 10 * 60_000 };
/**
 * Open connections one instance accepts; past it new ones are closed at once (server.maxConnections).
 * Issue 22's spike is 1,000 visitors' connections at once, and the till, the owner and the proxy's
 * spare keep-alive connections must still get in beside them: 4,000 (decision 091). It stays a cap:
 * each connection is a file descriptor (Node raises its soft limit to the hard one, 20,000 on our
 * hosts; the database, photos and logs need theirs) and a few KB of memory. Admission's queue has the
 * same bound (server/admission.ts).
 */
export const MAX_OPEN_CONNECTIONS = 4_000;
/**
 * Connections the kernel holds for the server until it accepts them (listen's backlog; Linux caps it
 * at net.core.somaxconn, 4,096 by default). Node's default of 511 overflowed when a spike's 1,000
 * connections arrived at once: the kernel dropped the rest, and their clients (a buyer's among them)
 * waited a second or three to retry (decision 091).
 */
export const LISTEN_BACKLOG = 4_096;

const ADMIN_PATH = /^\/admin\//;
const TIMEOUT_BODY = "Request Timeout: the request body did not arrive in time.\n";
const REQUEST_TIMEOUT_RESPONSE =
  "HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\n" +
  `Content-Length: ${Buffer.byteLength(TIMEOUT_BODY)}\r\n\r\n${TIMEOUT_BODY}`;

const sendsBody = (req: http.IncomingMessage) =>
  req.headers["transfer-encoding"] !== undefined || Number(req.headers["content-length"] ?? 0) > 0;

/**
 * Node's own limits for every request, set on the server: the longest any request may take to arrive
 * (the admin's), headers within the anonymous deadline, and a cap on open connections.
 */
export function applyServerLimits(server: http.Server, deadlines: RequestDeadlines = DEFAULT_REQUEST_DEADLINES) {
  server.requestTimeout = deadlines.adminMs;
  server.headersTimeout = Math.min(deadlines.anonymousMs, deadlines.adminMs);
  server.maxConnections = MAX_OPEN_CONNECTIONS;
}

/**
 * A body still arriving when its deadline passes is answered 408 and its connection closed, so a
 * client trickling a body byte by byte cannot keep a request open. Only a request on an /admin/ path
 * whose cookie names a live admin session gets the longer deadline; the session is checked while the
 * body arrives, so nothing waits on it.
 */
export function createRequestDeadlines(
  runtime: Pick<Runtime, "config" | "database" | "clock">,
  deadlines: RequestDeadlines,
) {
  const cookieName = adminCookieName({ config: runtime.config });
  return function watch(req: http.IncomingMessage, res: http.ServerResponse): void {
    if (!sendsBody(req)) return;
    const started = Date.now();
    let timer = setTimeout(expire, deadlines.anonymousMs);
    const stop = () => clearTimeout(timer);
    req.once("end", stop);
    res.once("close", stop);

    const token = ADMIN_PATH.test(req.url ?? "") ? readCookieHeader(req.headers.cookie, cookieName) : undefined;
    if (token) {
      sessionIsValid(runtime.database.db, token, runtime.clock.now()).then(
        (valid) => {
          if (!valid || req.complete || res.writableEnded) return;
          clearTimeout(timer);
          timer = setTimeout(expire, Math.max(0, deadlines.adminMs - (Date.now() - started)));
        },
        () => {},
      );
    }

    function expire() {
      if (req.complete) return;
      const socket = req.socket;
      // Written on the socket itself, as Node does for its own request timeout: the app may still be
      // waiting on the body, and must not answer on a connection that is being closed.
      if (!res.headersSent) socket.write(REQUEST_TIMEOUT_RESPONSE);
      socket.destroy();
    }
  };
}
