import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config.server";

const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), "honey-config-"));

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe("loadConfig", () => {
  it("works with no configuration at all: defaults, and secrets generated once and kept in DATA_DIR", () => {
    const dir = tempDir();
    const first = loadConfig({ DATA_DIR: dir });
    expect(first.port).toBe(3000);
    expect(first.databaseUrl).toBeUndefined();
    expect(first.payment.provider).toBe("simulator");
    expect(first.payment.stockHoldMinutes).toBe(15);
    expect(first.siteUrl).toBe("http://localhost:3000");
    expect(first.sessionSecret.length).toBeGreaterThanOrEqual(32);
    const stored = JSON.parse(fs.readFileSync(path.join(dir, "secrets.json"), "utf8"));
    expect(stored.sessionSecret).toBe(first.sessionSecret);
    const second = loadConfig({ DATA_DIR: dir });
    expect(second.sessionSecret).toBe(first.sessionSecret);
    expect(second.payment.simulatorWebhookSecret).toBe(first.payment.simulatorWebhookSecret);
  });

  it("gives one clear line per bad value", () => {
    const problems = problemsOf({
      DATA_DIR: tempDir(),
      PORT: "abc",
      DATABASE_URL: "mysql://x",
      SITE_URL: "not a url",
      YOCO_SECRET_KEY: "pk_test_123",
      STOCK_HOLD_MINUTES: "-5",
    });
    expect(problems).toHaveLength(5);
    expect(problems.find((p) => p.startsWith("PORT:"))).toContain('"abc"');
    expect(problems.find((p) => p.startsWith("DATABASE_URL:"))).toContain("postgres://");
    expect(problems.some((p) => p.startsWith("SITE_URL:"))).toBe(true);
    expect(problems.some((p) => p.startsWith("STOCK_HOLD_MINUTES:"))).toBe(true);
    const yoco = problems.find((p) => p.startsWith("YOCO_SECRET_KEY:"))!;
    expect(yoco).toContain("sk_test_");
    expect(yoco).not.toContain("pk_test_123");
  });

  it("requires the deployment's secrets when NODE_ENV=production instead of generating them", () => {
    const dir = tempDir();
    const problems = problemsOf({ NODE_ENV: "production", DATA_DIR: dir });
    expect(problems.some((p) => p.startsWith("SESSION_SECRET:"))).toBe(true);
    expect(problems.some((p) => p.startsWith("SITE_URL:"))).toBe(true);
    expect(problems.some((p) => p.startsWith("YOCO_SECRET_KEY:"))).toBe(true);
    expect(fs.existsSync(path.join(dir, "secrets.json"))).toBe(false);
  });

  it("accepts a complete production configuration with Yoco", () => {
    const config = loadConfig({
      NODE_ENV: "production",
      DATA_DIR: tempDir(),
      SESSION_SECRET: "x".repeat(40),
      SITE_URL: "https://shop.example.co.za/",
      DATABASE_URL: "postgres://u:p@db:5432/shop",
      YOCO_SECRET_KEY: "sk_live_abc",
      YOCO_WEBHOOK_SECRET: "whsec_abc",
    });
    expect(config.isProduction).toBe(true);
    expect(config.isDeployment).toBe(true);
    expect(config.payment.provider).toBe("yoco");
    expect(config.siteUrl).toBe("https://shop.example.co.za");
  });

  it("needs the webhook secret with a Yoco key", () => {
    const problems = problemsOf({ DATA_DIR: tempDir(), YOCO_SECRET_KEY: "sk_test_abc" });
    expect(problems).toEqual(["YOCO_WEBHOOK_SECRET: is required when YOCO_SECRET_KEY is set"]);
  });

  it("reads TRUST_PROXY as a hop count or the proxies' addresses, and refuses true with what to write instead", () => {
    const dir = tempDir();
    expect(loadConfig({ DATA_DIR: dir }).trustProxy).toBe(false);
    expect(loadConfig({ DATA_DIR: dir, TRUST_PROXY: "false" }).trustProxy).toBe(false);
    expect(loadConfig({ DATA_DIR: dir, TRUST_PROXY: "0" }).trustProxy).toBe(false);
    expect(loadConfig({ DATA_DIR: dir, TRUST_PROXY: "1" }).trustProxy).toBe(1);
    expect(loadConfig({ DATA_DIR: dir, TRUST_PROXY: "2" }).trustProxy).toBe(2);
    expect(loadConfig({ DATA_DIR: dir, TRUST_PROXY: "10.0.0.2, 10.1.0.0/16,loopback,fd00::/8" }).trustProxy).toEqual([
      "10.0.0.2",
      "10.1.0.0/16",
      "loopback",
      "fd00::/8",
    ]);
    const refused = problemsOf({ DATA_DIR: dir, TRUST_PROXY: "true" });
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatch(/^TRUST_PROXY: true would trust the address the client writes first/);
    expect(refused[0]).toContain("1 for one nginx or Caddy");
    for (const bad of ["yes", "10.0.0.300", "10.0.0.0/33", "-1", "11"]) {
      expect(problemsOf({ DATA_DIR: dir, TRUST_PROXY: bad }), bad).toEqual([
        expect.stringMatching(/^TRUST_PROXY: must be a number of proxies/),
      ]);
    }
  });

  it("serves the built app as production unless development is asked for, generating secrets unless NODE_ENV=production is set", () => {
    const dir = tempDir();
    const built = loadConfig({ DATA_DIR: dir }, { defaultNodeEnv: "production" });
    expect(built).toMatchObject({ env: "production", isProduction: true, isDeployment: false });
    expect(built.sessionSecret.length).toBeGreaterThanOrEqual(32);
    expect(loadConfig({ DATA_DIR: dir, NODE_ENV: "development" }, { defaultNodeEnv: "production" })).toMatchObject({
      isProduction: false,
      isDeployment: false,
    });
    expect(loadConfig({ DATA_DIR: dir }, { defaultNodeEnv: "development" }).isProduction).toBe(false);
    expect(problemsOf({ DATA_DIR: dir, NODE_ENV: "production" }).length).toBeGreaterThan(0);
  });
});

describe("PayFast configuration", () => {
  it("is off without keys, with the sandbox and PayFast's documented sources as defaults", () => {
    expect(loadConfig({ DATA_DIR: tempDir() }).payfast).toBeUndefined();
    const config = loadConfig({
      DATA_DIR: tempDir(),
      PAYFAST_MERCHANT_ID: "10000100",
      PAYFAST_MERCHANT_KEY: "46f0cd694581a",
      PAYFAST_PASSPHRASE: "jt7NOE43FZPn",
      PAYFAST_ITN_SOURCES: "",
    }).payfast!;
    expect(config).toMatchObject({
      processUrl: "https://sandbox.payfast.co.za/eng/process",
      validateUrl: "https://sandbox.payfast.co.za/eng/query/validate",
      apiUrl: "https://api.payfast.co.za",
      sandbox: true,
    });
    expect(config.itnSources).toContain("197.97.145.144/28");
  });

  it("wants all three keys or none, and addresses or CIDR ranges as sources; the passphrase is never echoed", () => {
    const problems = problemsOf({ DATA_DIR: tempDir(), PAYFAST_PASSPHRASE: "secret-phrase" });
    expect(problems).toEqual([
      "PAYFAST_MERCHANT_ID: is required when any PayFast key is set",
      "PAYFAST_MERCHANT_KEY: is required when any PayFast key is set",
    ]);
    expect(problemsOf({ DATA_DIR: tempDir(), PAYFAST_ITN_SOURCES: "127.0.0.1/32, payfast.co.za" })).toEqual([
      expect.stringMatching(/^PAYFAST_ITN_SOURCES: must be a comma-separated list .+ \(not payfast\.co\.za\)/),
    ]);
    expect(problems.join("\n")).not.toContain("secret-phrase");
  });
});
