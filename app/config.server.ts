import { randomBytes } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { z } from "zod";

const optionalText = z
  .string()
  .trim()
  .transform((v) => (v === "" ? undefined : v))
  .optional();

/**
 * Which proxies may name the client in X-Forwarded-For: none (false), a hop count, or their
 * addresses. `true` would trust the left-most address, which the client writes itself, so it is
 * refused (docs/decisions/079-security-review-fixes.md). Returns the problem as a string.
 */
export type TrustProxy = false | number | string[];
const NAMED_RANGES = new Set(["loopback", "linklocal", "uniquelocal"]);

function isAddressOrSubnet(value: string): boolean {
  if (NAMED_RANGES.has(value)) return true;
  const [address, bits, extra] = value.split("/");
  const family = net.isIP(address ?? "");
  if (!family || extra !== undefined) return false;
  if (bits === undefined) return true;
  if (!/^\d{1,3}$/.test(bits)) return false;
  return Number(bits) <= (family === 4 ? 32 : 128);
}

export function parseTrustProxy(raw: string): TrustProxy | string {
  const value = raw.trim().toLowerCase();
  if (value === "" || value === "false" || value === "0") return false;
  if (value === "true") {
    return (
      "true would trust the address the client writes first in X-Forwarded-For; write how many proxies stand in " +
      "front (1 for one nginx or Caddy) or their addresses (e.g. 10.0.0.2 or 10.0.0.0/8)"
    );
  }
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    return hops <= 10 ? hops : "must be a number of proxies from 1 to 10, or their addresses";
  }
  const entries = value
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  const bad = entries.filter((entry) => !isAddressOrSubnet(entry));
  if (!entries.length || bad.length) {
    return (
      `must be a number of proxies (1 for one nginx or Caddy) or a comma-separated list of their addresses or ` +
      `subnets (not ${bad.join(", ") || "empty"})`
    );
  }
  return entries;
}

/**
 * The addresses PayFast documents its notifications coming from (payments-payfast.md §4). Its hosts'
 * own addresses are not resolved here: an operator who sees them refused adds them to the variable.
 */
export const PAYFAST_DOCUMENTED_SOURCES =
  "197.97.145.144/28,41.74.179.192/27,102.216.36.0/28,102.216.36.128/28,144.126.193.139";

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

/** Every environment variable the app reads. `.env.example` documents each one. */
export const envSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().default("0.0.0.0"),
    DATABASE_URL: optionalText.pipe(
      z
        .string()
        .regex(/^postgres(ql)?:\/\//, "must start with postgres:// or postgresql://")
        .optional(),
    ),
    DATABASE_POOL_SIZE: positiveInt(10),
    DATA_DIR: z.string().min(1).default("./data"),
    SESSION_SECRET: optionalText.pipe(z.string().min(32, "must be at least 32 characters").optional()),
    ADMIN_PASSWORD: optionalText.pipe(z.string().min(8, "must be at least 8 characters").optional()),
    SITE_URL: optionalText.pipe(z.url("must be an absolute URL such as https://example.co.za").optional()),
    TRUST_PROXY: z
      .string()
      .default("false")
      .transform((value, ctx) => {
        const parsed = parseTrustProxy(value);
        if (typeof parsed === "string") {
          ctx.addIssue({ code: "custom", message: parsed });
          return z.NEVER;
        }
        return parsed;
      }),
    PAYMENT_PROVIDER: z.enum(["yoco", "simulator"]).optional(),
    PAYMENT_SIMULATOR: z.enum(["enabled", "disabled"]).optional(),
    YOCO_SECRET_KEY: optionalText.pipe(
      z
        .string()
        .regex(/^sk_(test|live)_/, "must start with sk_test_ or sk_live_")
        .optional(),
    ),
    YOCO_WEBHOOK_SECRET: optionalText.pipe(
      z
        .string()
        .regex(/^whsec_/, "must start with whsec_")
        .optional(),
    ),
    YOCO_API_BASE: z.url("must be an absolute URL").default("https://payments.yoco.com"),
    STOCK_HOLD_MINUTES: positiveInt(15),
    SMTP_URL: optionalText.pipe(
      z
        .string()
        .regex(/^smtps?:\/\//, "must start with smtp:// or smtps://")
        .optional(),
    ),
    MAIL_FROM: z.string().default("Honey Bee Sustainable Fashion <hello@honeybeefashion.co.za>"),
    OWNER_EMAIL: z.email("must be an email address").default("hello@honeybeefashion.co.za"),
    /** Newsletter emails queued for sending per second, across every instance. */
    NEWSLETTER_RATE: positiveInt(2),
    /** Pins the app's clock (ISO date-time) for demos and tests of date rules. */
    APP_NOW: optionalText.pipe(z.iso.datetime({ offset: true }).optional()),
    PAYFAST_MERCHANT_ID: optionalText.pipe(
      z.string().regex(/^\d+$/, "must be PayFast's numeric merchant id").optional(),
    ),
    PAYFAST_MERCHANT_KEY: optionalText,
    PAYFAST_PASSPHRASE: optionalText,
    PAYFAST_PROCESS_URL: z.url("must be an absolute URL").default("https://sandbox.payfast.co.za/eng/process"),
    PAYFAST_VALIDATE_URL: z.url("must be an absolute URL").default("https://sandbox.payfast.co.za/eng/query/validate"),
    PAYFAST_API_URL: z.url("must be an absolute URL").default("https://api.payfast.co.za"),
    PAYFAST_ITN_SOURCES: z
      .string()
      .default(PAYFAST_DOCUMENTED_SOURCES)
      .transform((value, ctx) => {
        const entries = (value.trim() || PAYFAST_DOCUMENTED_SOURCES)
          .split(",")
          .map((entry) => entry.trim())
          .filter(Boolean);
        const bad = entries.filter((entry) => NAMED_RANGES.has(entry) || !isAddressOrSubnet(entry));
        if (!entries.length || bad.length) {
          ctx.addIssue({
            code: "custom",
            message: `must be a comma-separated list of addresses or CIDR ranges (not ${bad.join(", ") || "empty"})`,
          });
          return z.NEVER;
        }
        return entries;
      }),
  })
  .superRefine((env, ctx) => {
    if (env.YOCO_SECRET_KEY && !env.YOCO_WEBHOOK_SECRET) {
      ctx.addIssue({
        code: "custom",
        path: ["YOCO_WEBHOOK_SECRET"],
        message: "is required when YOCO_SECRET_KEY is set",
      });
    }
    const payfastKeys = [env.PAYFAST_MERCHANT_ID, env.PAYFAST_MERCHANT_KEY, env.PAYFAST_PASSPHRASE];
    if (payfastKeys.some(Boolean) && !payfastKeys.every(Boolean)) {
      for (const name of ["PAYFAST_MERCHANT_ID", "PAYFAST_MERCHANT_KEY", "PAYFAST_PASSPHRASE"] as const) {
        if (!env[name])
          ctx.addIssue({ code: "custom", path: [name], message: "is required when any PayFast key is set" });
      }
    }
    if (env.PAYMENT_PROVIDER === "yoco" && !env.YOCO_SECRET_KEY) {
      ctx.addIssue({
        code: "custom",
        path: ["YOCO_SECRET_KEY"],
        message: "is required when PAYMENT_PROVIDER=yoco",
      });
    }
  });

export type Env = z.infer<typeof envSchema>;

export interface AppConfig {
  env: Env["NODE_ENV"];
  /** Production security: Secure `__Host-` cookies, HSTS. The built app's default (server.js). */
  isProduction: boolean;
  /** NODE_ENV=production was set: a deployment, whose secrets must be given rather than generated. */
  isDeployment: boolean;
  port: number;
  host: string;
  databaseUrl?: string;
  databasePoolSize: number;
  dataDir: string;
  sessionSecret: string;
  /** Set when the operator gave one; otherwise the stored hash (or a generated password) is used. */
  adminPassword?: string;
  siteUrl: string;
  trustProxy: TrustProxy;
  payment: {
    provider: "yoco" | "simulator";
    yocoSecretKey?: string;
    yocoWebhookSecret?: string;
    yocoApiBase: string;
    simulatorWebhookSecret: string;
    stockHoldMinutes: number;
  };
  mail: { smtpUrl?: string; from: string; ownerEmail: string };
  fixedNow?: Date;
  /** Newsletter emails queued per second, across every instance (NEWSLETTER_RATE). */
  newsletterRate?: number;
  /** PayFast card subscriptions for memberships; absent without keys (memberships then renew by email). */
  payfast?: PayfastConfig;
}

export interface PayfastConfig {
  merchantId: string;
  merchantKey: string;
  passphrase: string;
  processUrl: string;
  validateUrl: string;
  apiUrl: string;
  /** PayFast's sandbox: its API calls carry `?testing=true`. */
  sandbox: boolean;
  /** Addresses and CIDR ranges an ITN may come from. */
  itnSources: string[];
  validateTimeoutMs: number;
}

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

/** One readable line per bad variable, e.g. "PORT: must be a number (got "abc")". */
export function describeEnvProblems(error: z.ZodError, source: Record<string, string | undefined>) {
  return error.issues.map((issue) => {
    const name = String(issue.path[0] ?? "environment");
    const got = source[name];
    const shown =
      got === undefined ? "" : ` (got ${JSON.stringify(name.match(/SECRET|PASSWORD|PASSPHRASE|KEY/) ? "***" : got)})`;
    return `${name}: ${issue.message}${shown}`;
  });
}

interface StoredSecrets {
  sessionSecret?: string;
  simulatorWebhookSecret?: string;
}

function readSecretsFile(file: string): StoredSecrets {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8")) as StoredSecrets;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw new ConfigError([`${file}: cannot be read as JSON (${(error as Error).message})`]);
  }
}

/**
 * Validates the environment and fills in what a fresh clone lacks. Outside production a missing
 * secret is generated once and kept in DATA_DIR/secrets.json, so restarts keep sessions and
 * signatures valid; in production (NODE_ENV=production) a missing secret is an error.
 */
export interface LoadConfigOptions {
  /**
   * NODE_ENV when the environment does not set it. server.js serves the built app as production
   * (secure cookies and HSTS) unless development is asked for; an explicit NODE_ENV=production
   * additionally declares a deployment whose secrets must be given.
   */
  defaultNodeEnv?: Env["NODE_ENV"];
}

export function loadConfig(
  source: Record<string, string | undefined> = process.env,
  options: LoadConfigOptions = {},
): AppConfig {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) throw new ConfigError(describeEnvProblems(parsed.error, source));
  const env = parsed.data;
  const declared = source.NODE_ENV !== undefined && source.NODE_ENV !== "";
  const nodeEnv = declared ? env.NODE_ENV : (options.defaultNodeEnv ?? env.NODE_ENV);
  const isProduction = nodeEnv === "production";
  const isDeployment = declared && env.NODE_ENV === "production";
  const dataDir = path.resolve(env.DATA_DIR);
  const provider = env.PAYMENT_PROVIDER ?? (env.YOCO_SECRET_KEY ? "yoco" : "simulator");

  const problems: string[] = [];
  if (isDeployment) {
    if (!env.SESSION_SECRET) problems.push("SESSION_SECRET: is required when NODE_ENV=production");
    if (!env.SITE_URL) problems.push("SITE_URL: is required when NODE_ENV=production");
    if (provider === "simulator" && env.PAYMENT_SIMULATOR !== "enabled") {
      problems.push(
        "YOCO_SECRET_KEY: is required when NODE_ENV=production (or set PAYMENT_SIMULATOR=enabled for a demo)",
      );
    }
  }
  if (problems.length) throw new ConfigError(problems);

  let sessionSecret = env.SESSION_SECRET;
  let simulatorWebhookSecret: string | undefined;
  const needsStore = !sessionSecret || provider === "simulator";
  if (needsStore) {
    fs.mkdirSync(dataDir, { recursive: true });
    const file = path.join(dataDir, "secrets.json");
    const stored = readSecretsFile(file);
    let changed = false;
    if (!sessionSecret) {
      if (!stored.sessionSecret) {
        stored.sessionSecret = randomBytes(32).toString("base64url");
        changed = true;
      }
      sessionSecret = stored.sessionSecret;
    }
    if (!stored.simulatorWebhookSecret) {
      stored.simulatorWebhookSecret = `whsec_${randomBytes(24).toString("base64")}`;
      changed = true;
    }
    simulatorWebhookSecret = stored.simulatorWebhookSecret;
    if (changed) fs.writeFileSync(file, JSON.stringify(stored, null, 2), { mode: 0o600 });
  }

  return {
    env: nodeEnv,
    isProduction,
    isDeployment,
    port: env.PORT,
    host: env.HOST,
    databaseUrl: env.DATABASE_URL,
    databasePoolSize: env.DATABASE_POOL_SIZE,
    dataDir,
    sessionSecret: sessionSecret!,
    adminPassword: env.ADMIN_PASSWORD,
    siteUrl: (env.SITE_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, ""),
    trustProxy: env.TRUST_PROXY,
    payment: {
      provider,
      yocoSecretKey: env.YOCO_SECRET_KEY,
      yocoWebhookSecret: env.YOCO_WEBHOOK_SECRET,
      yocoApiBase: env.YOCO_API_BASE.replace(/\/$/, ""),
      simulatorWebhookSecret: simulatorWebhookSecret ?? `whsec_${randomBytes(24).toString("base64")}`,
      stockHoldMinutes: env.STOCK_HOLD_MINUTES,
    },
    mail: { smtpUrl: env.SMTP_URL, from: env.MAIL_FROM, ownerEmail: env.OWNER_EMAIL },
    fixedNow: env.APP_NOW ? new Date(env.APP_NOW) : undefined,
    newsletterRate: env.NEWSLETTER_RATE,
    payfast:
      env.PAYFAST_MERCHANT_ID && env.PAYFAST_MERCHANT_KEY && env.PAYFAST_PASSPHRASE
        ? {
            merchantId: env.PAYFAST_MERCHANT_ID,
            merchantKey: env.PAYFAST_MERCHANT_KEY,
            passphrase: env.PAYFAST_PASSPHRASE,
            processUrl: env.PAYFAST_PROCESS_URL,
            validateUrl: env.PAYFAST_VALIDATE_URL,
            apiUrl: env.PAYFAST_API_URL.replace(/\/$/, ""),
            sandbox: new URL(env.PAYFAST_PROCESS_URL).hostname === "sandbox.payfast.co.za",
            itnSources: env.PAYFAST_ITN_SOURCES,
            validateTimeoutMs: 10_000,
          }
        : undefined,
  };
}
