import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";

const optionalText = z
  .string()
  .trim()
  .transform((v) => (v === "" ? undefined : v))
  .optional();

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
      .enum(["true", "false", "1", "0", ""])
      .default("false")
      .transform((v) => v === "true" || v === "1"),
    PAYMENT_PROVIDER: z.enum(["yoco", "simulator"]).optional(),
    PAYMENT_SIMULATOR: z.enum(["enabled", "disabled"]).optional(),
    YOCO_SECRET_KEY: optionalText.pipe(
      z.string().regex(/^sk_(test|live)_/, "must start with sk_test_ or sk_live_").optional(),
    ),
    YOCO_WEBHOOK_SECRET: optionalText.pipe(
      z.string().regex(/^whsec_/, "must start with whsec_").optional(),
    ),
    YOCO_API_BASE: z.url("must be an absolute URL").default("https://payments.yoco.com"),
    STOCK_HOLD_MINUTES: positiveInt(15),
    SMTP_URL: optionalText.pipe(
      z.string().regex(/^smtps?:\/\//, "must start with smtp:// or smtps://").optional(),
    ),
    MAIL_FROM: z.string().default("Honey Bee Sustainable Fashion <hello@honeybeefashion.co.za>"),
    OWNER_EMAIL: z.email("must be an email address").default("hello@honeybeefashion.co.za"),
    /** Pins the app's clock (ISO date-time) for demos and tests of date rules. */
    APP_NOW: optionalText.pipe(z.iso.datetime({ offset: true }).optional()),
  })
  .superRefine((env, ctx) => {
    if (env.YOCO_SECRET_KEY && !env.YOCO_WEBHOOK_SECRET) {
      ctx.addIssue({
        code: "custom",
        path: ["YOCO_WEBHOOK_SECRET"],
        message: "is required when YOCO_SECRET_KEY is set",
      });
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
  isProduction: boolean;
  port: number;
  host: string;
  databaseUrl?: string;
  databasePoolSize: number;
  dataDir: string;
  sessionSecret: string;
  /** Set when the operator gave one; otherwise the stored hash (or a generated password) is used. */
  adminPassword?: string;
  siteUrl: string;
  trustProxy: boolean;
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
    const shown = got === undefined ? "" : ` (got ${JSON.stringify(name.match(/SECRET|PASSWORD|KEY/) ? "***" : got)})`;
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
export function loadConfig(source: Record<string, string | undefined> = process.env): AppConfig {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) throw new ConfigError(describeEnvProblems(parsed.error, source));
  const env = parsed.data;
  const isProduction = env.NODE_ENV === "production";
  const dataDir = path.resolve(env.DATA_DIR);
  const provider = env.PAYMENT_PROVIDER ?? (env.YOCO_SECRET_KEY ? "yoco" : "simulator");

  const problems: string[] = [];
  if (isProduction) {
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
    env: env.NODE_ENV,
    isProduction,
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
  };
}
