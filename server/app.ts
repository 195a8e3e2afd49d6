import { createRequestHandler } from "@react-router/express";
import compression from "compression";
import express, { type Express } from "express";
import http from "node:http";
import path from "node:path";
import proxyaddr from "proxy-addr";
import { createRequestHandler as createFetchHandler, type ServerBuild } from "react-router";
import type { ViteDevServer } from "vite";
import { ConfigError } from "~/config.server";
import { createAppContext } from "~/context.server";
import { deliverPendingEmails } from "~/email/outbox.server";
import { newsletterSenderSettings, startNewsletterSender } from "~/newsletters/newsletter-sender.server";
import { startRenditionWorker } from "~/media/renditions.server";
import { startMembershipJob } from "~/memberships/membership-job.server";
import { startErasureJob } from "~/privacy/erasure-job.server";
import { startOrderSweeper } from "~/orders/sweeper.server";
import { discardUnreadBodies, limitRequestBodies, requireFormBodies } from "./body-limits";
import {
  classifyRequest,
  createAdmission,
  DEFAULT_ADMISSION,
  sendBusy,
  type Admission,
  type AdmissionOptions,
} from "./admission";
import { createAnalyticsFastPath } from "./analytics-fast-path";
import { createPageCache, HEADER_NONCE_PLACEHOLDER, setSecurityHeaders, type HeaderTemplate } from "./page-cache";
import { precompressedAssets } from "./precompressed-assets";
import {
  applyServerLimits,
  createRequestDeadlines,
  DEFAULT_REQUEST_DEADLINES,
  LISTEN_BACKLOG,
  type RequestDeadlines,
} from "./request-deadlines";
import { createRuntime, type Runtime } from "./runtime";
import { cameraForTheDoor, permissionsPolicy, securityHeaders } from "./security-headers";
import { warmBeforeListening } from "./warm-up";

export interface CreateAppOptions {
  /** Dev mode: routes come from Vite's module graph, with hot reload. */
  vite?: ViteDevServer;
  /** Folder with the built client assets (production). */
  clientDir?: string;
  /** Serve anonymous public pages from memory (default: on in production, off in dev). */
  pageCache?: boolean;
  /** How long a request body may take to arrive (tests shorten them). */
  requestDeadlines?: RequestDeadlines;
  /** Till-first admission's bounds (default: on with the page cache; `false` turns it off). */
  admission?: AdmissionOptions | false;
}

/**
 * Built assets and public files, as the static handlers below find them (a file-like path outside
 * /media/): no render, no database. A route's data request (`.data`) is not one.
 */
function isStaticFile(url: string | undefined): boolean {
  const path = (url ?? "/").split("?", 1)[0]!;
  return /\.[a-z0-9]+$/i.test(path) && !path.startsWith("/media/") && !path.endsWith(".data");
}

/** Pages that show one person's data: never stored by browsers or shared caches. */
const PRIVATE_PATHS = /^\/(checkout|order-confirmation|order|payments)(\/|$)|^\/your-data(?:[/.]|$)/;
/** Every admin response, documents and their `.data` requests alike (/admin, /admin.data, /admin/…). */
const ADMIN_PATHS = /^\/admin(?:[/.]|$)/;

/** A member's own pages (/account, /account.data, /account/…): one person's data, like the admin's. */
const ACCOUNT_PATHS = /^\/account(?:[/.]|$)/;

/**
 * A Cache-Control value on every response under `paths`, set last so that no route can loosen it: the
 * owner's dashboard, messages and exports, and a member's page, must never sit in a browser's or a proxy's cache.
 */
const forceCacheControl =
  (paths: RegExp, value: string): express.RequestHandler =>
  (req, res, next) => {
    if (!paths.test(req.path)) return next();
    res.setHeader("Cache-Control", value);
    const writeHead = res.writeHead;
    res.writeHead = function (this: express.Response, ...args: unknown[]) {
      if (!this.headersSent) this.setHeader("Cache-Control", value);
      return (writeHead as (...a: unknown[]) => express.Response).apply(this, args);
    } as typeof res.writeHead;
    next();
  };
const noStoreForAdmin = forceCacheControl(ADMIN_PATHS, "no-store");
const noStoreForAccount = forceCacheControl(ACCOUNT_PATHS, "private, no-store");

/**
 * The security headers the middleware below sends, captured once with a placeholder nonce, so the
 * page cache's fast path sends exactly the same ones without going through Express.
 */
function captureSecurityHeaders(middlewares: express.RequestHandler[]): HeaderTemplate {
  const headers = new Map<string, string>();
  const res = {
    locals: { nonce: HEADER_NONCE_PLACEHOLDER },
    setHeader: (name: string, value: unknown) => headers.set(name, String(value)),
    removeHeader: (name: string) => headers.delete(name),
    getHeader: (name: string) => headers.get(name),
  };
  const req = { headers: {}, method: "GET", url: "/", path: "/" };
  for (const middleware of middlewares) middleware(req as never, res as never, () => {});
  return [...headers.entries()];
}

/**
 * The whole HTTP handler. In production the two hottest requests are answered before Express:
 * cached anonymous pages (server/page-cache.ts) and plain analytics posts
 * (server/analytics-fast-path.ts). Everything else goes through the Express app. In front of both,
 * till-first admission (server/admission.ts, decision 091): checkout posts, payment pages and
 * returns, webhooks, the admin and the health check start at once; when the server is saturated,
 * everything else waits its turn (or, past the bounds, gets 503 with Retry-After).
 */
export function createRequestListener(
  runtime: Runtime,
  options: CreateAppOptions = {},
): http.RequestListener & { admission?: Admission<http.ServerResponse> } {
  const app = createApp(runtime, options);
  const pageCache = app.locals.pageCache as ReturnType<typeof createPageCache> | undefined;
  const headers = app.locals.securityHeaders as HeaderTemplate;
  const watchDeadline = createRequestDeadlines(runtime, options.requestDeadlines ?? DEFAULT_REQUEST_DEADLINES);
  // The same address Express gives as req.ip, through the same trusted proxy chain.
  const trust = app.get("trust proxy fn") as Parameters<typeof proxyaddr>[1];
  const ingestAnalytics = pageCache
    ? createAnalyticsFastPath(runtime, headers, (req) => proxyaddr(req, trust))
    : undefined;
  const fast = (req: http.IncomingMessage, res: http.ServerResponse) =>
    Boolean(pageCache && (ingestAnalytics!(req, res) || pageCache.tryServe(req, res, headers)));

  const admissionOptions = options.admission ?? (pageCache ? {} : false);
  if (!admissionOptions) {
    return (req, res) => {
      runtime.database.deliverTransactionAnswers();
      watchDeadline(req, res);
      if (!fast(req, res)) app(req, res);
    };
  }
  const retryAfter = admissionOptions.retryAfterSeconds ?? DEFAULT_ADMISSION.retryAfterSeconds;
  const admission = createAdmission<http.ServerResponse>(
    {
      fast: (res) => fast(res.req, res),
      slow: (res, done) => {
        // The slot is free once the response is written (compression included), not when a slow
        // client has downloaded it; `close` covers a client that left first.
        const end = res.end;
        res.end = function (this: http.ServerResponse, ...args: unknown[]) {
          done();
          return (end as (...a: unknown[]) => http.ServerResponse).apply(this, args);
        } as typeof res.end;
        res.once("close", done);
        app(res.req, res);
      },
      needsSlot: (res) => !isStaticFile(res.req.url),
      shed: (res) => sendBusy(res, headers, retryAfter),
      gone: (res) => res.req.socket.destroyed,
    },
    admissionOptions,
  );
  const listener = (req: http.IncomingMessage, res: http.ServerResponse) => {
    // An open transaction's next statement goes before this request's work (decision 092).
    runtime.database.deliverTransactionAnswers();
    watchDeadline(req, res);
    const kind = classifyRequest(req.method, req.url);
    if (kind === "till") admission.till(res);
    else if (kind === "write") admission.write(res);
    else admission.bulk(res);
  };
  return Object.assign(listener, { admission });
}

/** The Express app: static files, health check, and every page through React Router. */
export function createApp(runtime: Runtime, options: CreateAppOptions = {}): Express {
  const { config, database, clock } = runtime;
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", config.trustProxy);

  const headers = captureSecurityHeaders([securityHeaders(config, { dev: Boolean(options.vite) }), permissionsPolicy]);
  app.locals.securityHeaders = headers;
  app.use(noStoreForAdmin, noStoreForAccount);
  // Helmet's dozen middlewares, run once above; each response gets their headers from the template
  // with its own nonce, as the page cache's responses do (decision 098).
  // A route that tightens one of them (a sign-in link's page says Referrer-Policy: same-origin) replaces
  // it: React Router appends its headers, which sent both values (issue 37).
  const securityHeaderNames = new Set(headers.map(([name]) => name.toLowerCase()));
  app.use((_req, res, next) => {
    res.locals.nonce = setSecurityHeaders(res, headers);
    const append = res.append;
    res.append = function appendOrReplace(name, value) {
      if (!securityHeaderNames.has(name.toLowerCase())) return append.call(this, name, value);
      this.setHeader(name, value ?? "");
      return this;
    };
    next();
  });
  app.use(cameraForTheDoor);
  // Photos under /media/ are AVIF and WebP already: compressing them again costs CPU and saves nothing.
  app.use(compression({ filter: (req, res) => !req.path.startsWith("/media/") && compression.filter(req, res) }));
  app.use(limitRequestBodies, discardUnreadBodies);

  app.get("/healthz", async (_req, res) => {
    res.setHeader("Cache-Control", "no-store");
    try {
      await database.ping();
      res.status(200).json({ status: "ok", database: "ok" });
    } catch (error) {
      res.status(503).json({ status: "unhealthy", database: "unreachable", error: (error as Error).message });
    }
  });

  if (options.vite) {
    app.use(options.vite.middlewares);
  } else if (options.clientDir) {
    // Hashed file names change with their content, so they can be cached forever.
    const assets = path.join(options.clientDir, "assets");
    app.use(
      "/assets",
      precompressedAssets(assets),
      express.static(assets, { immutable: true, maxAge: "1y", index: false }),
    );
    // Only file-like paths reach the disk: page requests skip a stat() per request.
    const files = express.static(options.clientDir, { maxAge: "1h", index: false });
    // Uploaded photos (/media/) live in the database, never on disk.
    app.use((req, res, next) =>
      /\.[a-z0-9]+$/i.test(req.path) && !req.path.startsWith("/media/") ? files(req, res, next) : next(),
    );
  }

  // Given a function, React Router derives its route tree again on every request (flattening and
  // ranking every route, compiling each path's pattern) so that hot reload sees new routes: a fifth of
  // the server's CPU under the soak. The built app never changes, so it gets the build object once.
  // Imported at the first page request, not here: the health check and tests need no build.
  let builtApp: Promise<ServerBuild> | undefined;
  const getBuild = options.vite
    ? () => options.vite!.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>
    : () => (builtApp ??= import("virtual:react-router/server-build") as unknown as Promise<ServerBuild>);
  /** A handler made once from the build object (or from `getBuild` in development, for hot reload). */
  const onceBuilt = <H>(make: (build: ServerBuild | (() => Promise<ServerBuild>)) => H): (() => Promise<H>) => {
    if (options.vite) {
      const handler = make(getBuild);
      return async () => handler;
    }
    let made: Promise<H> | undefined;
    return () => (made ??= getBuild().then(make));
  };

  const mode = options.vite ? "development" : "production";
  const loadContext = (req: express.Request, res: express.Response) =>
    createAppContext({
      db: database.db,
      dbHandle: database,
      config,
      clock,
      nonce: res.locals.nonce as string,
      clientIp: req.ip ?? req.socket.remoteAddress ?? "unknown",
    });

  app.use(requireFormBodies);
  app.use((req, res, next) => {
    if (PRIVATE_PATHS.test(req.path)) res.setHeader("Cache-Control", "private, no-store");
    next();
  });

  if (options.pageCache ?? !options.vite) {
    const fetchHandler = onceBuilt((build) => createFetchHandler(build, mode));
    const pageCache = createPageCache({
      db: database.db,
      render: async (request, res) => (await fetchHandler())(request, loadContext(res.req, res)),
      subscribe: (onChange) => database.onContentChange(onChange),
    });
    app.use(pageCache.middleware);
    app.locals.pageCache = pageCache;
  }

  const pageHandler = onceBuilt((build) => createRequestHandler({ build, mode, getLoadContext: loadContext }));
  app.all("/{*splat}", (req, res, next) => {
    pageHandler().then((handle) => handle(req, res, next), next);
  });
  return app;
}

export interface StartOptions extends CreateAppOptions {
  env?: Record<string, string | undefined>;
  /** NODE_ENV when the environment does not set it: server.js says production for the built app. */
  defaultNodeEnv?: "development" | "production";
}

export interface RunningServer {
  url: string;
  runtime: Runtime;
  server: http.Server;
  close(): Promise<void>;
}

/** Starts the whole site: runtime, HTTP server, outbox delivery, photo renditions, and a clean SIGTERM shutdown. */
export async function startServer(options: StartOptions = {}): Promise<RunningServer> {
  let runtime: Runtime;
  try {
    runtime = await createRuntime(options.env ?? process.env, undefined, { defaultNodeEnv: options.defaultNodeEnv });
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const listener = createRequestListener(runtime, options);
  if (options.pageCache ?? !options.vite) {
    const { visited, ms } = await warmBeforeListening(listener);
    const failed = visited.filter((v) => v.status !== 200).map((v) => `${v.path} (${v.status || "no answer"})`);
    console.log(
      `[server] warmed ${visited.length - failed.length} pages in ${ms} ms before listening` +
        (failed.length ? `; not: ${failed.join(", ")}` : ""),
    );
  }
  const server = http.createServer(listener);
  server.keepAliveTimeout = 65_000;
  applyServerLimits(server, options.requestDeadlines);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen({ port: runtime.config.port, host: runtime.config.host, backlog: LISTEN_BACKLOG }, resolve);
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : runtime.config.port;
  const url = `http://localhost:${port}`;
  console.log(`[server] listening on ${url}`);

  // The pass under way, so that closing waits for it rather than closing the database beneath it.
  let delivering: Promise<void> | undefined;
  const mailTimer = setInterval(() => {
    if (delivering) return;
    delivering = deliverPendingEmails(runtime.database.db, runtime.config.mail)
      .then(
        () => {},
        (error) => console.error(`[mail] delivery pass failed: ${(error as Error).message}`),
      )
      .finally(() => (delivering = undefined));
  }, 5_000);
  mailTimer.unref();
  const stopOrderSweeper = startOrderSweeper(runtime);
  // Membership reminders and statuses: safe on several instances at once (decision 086).
  const stopMembershipJob = startMembershipJob(runtime);
  // Newsletters into the outbox at NEWSLETTER_RATE a second across all instances, each recipient once (decision 117).
  const stopNewsletterSender = startNewsletterSender(runtime, newsletterSenderSettings(runtime.config));
  // Data erasures on their day, each once across instances (decision 119).
  const stopErasureJob = startErasureJob(runtime);
  // Uploaded photos' renditions, one at a time off the request path; picks up what a crash left pending.
  const renditionWorker = startRenditionWorker(runtime.database);

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      clearInterval(mailTimer);
      await delivering;
      stopOrderSweeper();
      stopMembershipJob();
      await stopNewsletterSender();
      stopErasureJob();
      // The encode in progress finishes (at most a few seconds); the rest stays pending for the next start.
      await renditionWorker.stop();
      // Stop accepting, let requests in flight finish, then close the database cleanly.
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      await runtime.database.close();
    })());

  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.once(signal, () => {
      console.log(`[server] ${signal}: finishing requests in flight, then closing`);
      const force = setTimeout(() => {
        console.error("[server] requests still open after 10 s; exiting");
        process.exit(1);
      }, 10_000);
      force.unref();
      close().then(
        () => process.exit(0),
        (error) => {
          console.error(error);
          process.exit(1);
        },
      );
    });
  }
  return { url, runtime, server, close };
}
