import type { RequestHandler } from "express";
import helmet from "helmet";
import type { AppConfig } from "~/config.server";

/**
 * Helmet's headers, with a CSP nonce taken from `res.locals.nonce`. The server runs this once with a
 * placeholder nonce and sends the captured headers on every response (server/app.ts, decision 098).
 */
export function securityHeaders(config: AppConfig, { dev }: { dev: boolean }): RequestHandler {
  const paymentOrigins = config.payment.provider === "yoco" ? ["https://c.yoco.com", "https://*.yoco.com"] : [];
  // A membership's checkout form posts to PayFast's process URL.
  if (config.payfast) paymentOrigins.push(new URL(config.payfast.processUrl).origin);
  return helmet({
    // Vite's dev server injects inline scripts and a websocket for hot reload.
    contentSecurityPolicy: dev
      ? false
      : {
          useDefaults: false,
          directives: {
            defaultSrc: ["'self'"],
            scriptSrc: [
              "'self'",
              (_req, res) => `'nonce-${(res as unknown as { locals: { nonce: string } }).locals.nonce}'`,
            ],
            styleSrc: ["'self'", "'unsafe-inline'"],
            imgSrc: ["'self'", "data:", "https://i.ytimg.com"],
            fontSrc: ["'self'"],
            connectSrc: ["'self'"],
            frameSrc: ["https://www.youtube-nocookie.com"],
            formAction: ["'self'", ...paymentOrigins],
            frameAncestors: ["'none'"],
            baseUri: ["'self'"],
            objectSrc: ["'none'"],
            // Only for an https site: on a local http run of the build it would send every asset to https.
            ...(config.isProduction && config.siteUrl.startsWith("https:") ? { upgradeInsecureRequests: [] } : {}),
          },
        },
    strictTransportSecurity: config.isProduction ? { maxAge: 63072000, includeSubDomains: true } : false,
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
    crossOriginEmbedderPolicy: false,
    xFrameOptions: { action: "deny" },
  });
}

const PERMISSIONS_POLICY = "camera=(), microphone=(), geolocation=(), payment=(self), interest-cohort=()";

export const permissionsPolicy: RequestHandler = (_req, res, next) => {
  res.setHeader("Permissions-Policy", PERMISSIONS_POLICY);
  next();
};

/** The one document that may use the camera: the door's check-in page scans tickets' QR codes (decision 105). */
export const DOOR_PATH = "/admin/check-in";
export const cameraForTheDoor: RequestHandler = (req, res, next) => {
  if (req.path === DOOR_PATH)
    res.setHeader("Permissions-Policy", PERMISSIONS_POLICY.replace("camera=()", "camera=(self)"));
  next();
};
