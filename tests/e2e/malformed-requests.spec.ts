import { expect, test } from "./support/test";
import fc from "fast-check";
import { startInstance, type Instance } from "./support/instances";

// Generated requests of every shape at every endpoint, through the real server (Express, body limits,
// React Router): wrong methods and content types, bad JSON, missing and extra fields, huge and odd
// strings, hostile paths and query strings. Whatever arrives, the answer is never a server error.
// An instance of its own, so the rate limits and rows this causes touch no other test.
const RUNS = Number(process.env.PROPERTY_RUNS ?? 1000);
const CONCURRENCY = 16;
test.setTimeout(300_000);

let app: Instance;
test.beforeAll(async () => {
  app = await startInstance({ ADMIN_PASSWORD: "malformed-requests-password" });
});
test.afterAll(async () => {
  await app?.stop();
});

const nasty = fc.oneof(
  fc.string(),
  fc.string({ unit: "grapheme", maxLength: 60 }),
  fc.string({ unit: "binary", maxLength: 60 }),
  fc.constantFrom(
    "",
    "\u0000",
    "\uFEFF",
    "<script>alert(1)</script>",
    "../../etc/passwd",
    "%00",
    "%E0%A4%A",
    "🐝",
    "-1",
    "1e309",
    "NaN",
  ),
  fc.integer({ min: -1e12, max: 1e12 }).map(String),
  fc.string({ minLength: 3_000, maxLength: 20_000 }),
);

interface Generated {
  method: string;
  path: string;
  contentType?: string;
  body?: string;
}

const formBody = (fields: string[]) =>
  fc
    .dictionary(fc.oneof(fc.constantFrom(...fields), fc.string({ maxLength: 10 })), nasty, { maxKeys: 8 })
    .map((record) => new URLSearchParams(record).toString());
const jsonBody = (fields: string[]) =>
  fc.oneof(
    fc
      .dictionary(fc.oneof(fc.constantFrom(...fields), fc.string({ maxLength: 10 })), fc.oneof(fc.jsonValue(), nasty), {
        maxKeys: 8,
      })
      .map((v) => JSON.stringify(v)),
    fc.jsonValue().map((v) => JSON.stringify(v)),
    nasty,
    fc.constantFrom("{", "[", "null", '{"a":', '{"__proto__":{"x":1}}'),
  );
const anyBody = (fields: string[]) =>
  fc.oneof(
    fc.record({ contentType: fc.constant("application/x-www-form-urlencoded"), body: formBody(fields) }),
    fc.record({ contentType: fc.constantFrom("application/json", "text/plain;charset=UTF-8"), body: jsonBody(fields) }),
    fc.record({
      contentType: fc.constantFrom(
        "multipart/form-data",
        "multipart/form-data; boundary=x",
        "application/xml",
        "image/png",
        "",
        "text/html; charset=bogus",
      ),
      body: nasty,
    }),
  );
const method = fc.constantFrom("POST", "POST", "POST", "PUT", "PATCH", "DELETE", "GET", "OPTIONS");

function endpoint(paths: fc.Arbitrary<string>, fields: string[]): fc.Arbitrary<Generated> {
  return fc.record({ method, path: paths, content: anyBody(fields) }).map(({ method, path, content }) => ({
    method,
    path,
    ...(method === "GET" || method === "OPTIONS" ? {} : content),
  }));
}

const ENDPOINTS: Record<string, fc.Arbitrary<Generated>> = {
  contact: endpoint(fc.constant("/contact"), [
    "firstName",
    "lastName",
    "email",
    "subject",
    "message",
    "website",
    "sessionId",
  ]),
  analytics: endpoint(fc.constant("/api/analytics"), [
    "eventType",
    "pagePath",
    "itemName",
    "sessionId",
    "referrer",
    "metadata",
  ]),
  "admin sign-in": endpoint(fc.constant("/admin/login"), ["password"]),
  "blog publishing": endpoint(fc.constant("/blog"), ["intent", "title", "excerpt", "author", "category", "content"]),
  "blog likes and views": endpoint(
    fc.oneof(
      fc.constant("/blog/sustainable-fashion-tips"),
      nasty.map((s) => `/blog/${encodeURIComponent(s).slice(0, 200)}`),
    ),
    ["intent", "sessionId"],
  ),
  checkout: endpoint(
    fc
      .record({ type: nasty, item: nasty, price: nasty })
      .map((q) => `/checkout?${new URLSearchParams(q)}`.slice(0, 4000)),
    ["type", "item", "price", "firstName", "lastName", "email", "phone", "address", "intent"],
  ),
  "payment webhook": endpoint(fc.constant("/api/webhooks/yoco"), ["id", "type", "createdDate", "payload"]),
  "photo upload": endpoint(fc.constantFrom("/admin/photos", "/admin/photos.data", "/admin/%2e%2e/contact"), ["file"]),
  "pages and query strings": fc
    .record({
      path: fc.oneof(
        fc.constantFrom(
          "/",
          "/product/",
          "/tickets/",
          "/membership/",
          "/blog/",
          "/events",
          "/order-confirmation",
          "/payments/simulator/",
          "/admin/export/",
        ),
        nasty.map((s) => `/${s}`),
      ),
      suffix: nasty,
      query: fc.dictionary(nasty, nasty, { maxKeys: 4 }),
    })
    .map(({ path, suffix, query }) => ({
      method: "GET",
      path: `${path}${encodeURIComponent(suffix)}?${new URLSearchParams(query)}`.slice(0, 8000),
    })),
};

async function send(base: string, request: Generated): Promise<number> {
  const headers: Record<string, string> = {
    Origin: base,
    "User-Agent": "Mozilla/5.0 (X11; Linux x86_64) generated-requests",
  };
  if (request.contentType !== undefined) headers["Content-Type"] = request.contentType;
  const response = await fetch(`${base}${request.path}`, {
    method: request.method,
    headers,
    body: request.body,
    redirect: "manual",
  });
  await response.arrayBuffer();
  return response.status;
}

for (const [name, arbitrary] of Object.entries(ENDPOINTS)) {
  test(`${name}: ${RUNS} generated requests, never a server error`, async () => {
    const inputs = fc.sample(arbitrary, { numRuns: RUNS, seed: 20261122 });
    const failures: string[] = [];
    let next = 0;
    const worker = async () => {
      while (next < inputs.length) {
        const input = inputs[next++]!;
        const status = await send(app.base, input).catch((error: Error) => `network error ${error.message}`);
        if (typeof status !== "number" || status >= 500) {
          const body = JSON.stringify(input.body ?? "").slice(0, 160);
          failures.push(`${status} ${input.method} ${input.path.slice(0, 120)} ${input.contentType ?? ""} ${body}`);
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    expect(failures.slice(0, 5), `${failures.length} of ${inputs.length} requests failed`).toEqual([]);
    // The server is still healthy afterwards.
    expect((await fetch(`${app.base}/healthz`)).status).toBe(200);
  });
}

test("a page refuses a body that is not an HTML form with a clear 415, and changes nothing", async () => {
  for (const [path, type, body] of [
    ["/admin/login", "application/json", '{"password":"malformed-requests-password"}'],
    ["/contact", "multipart/form-data; boundary=x", "--x--"],
    ["/blog", "text/plain", "intent=publish"],
  ] as const) {
    const response = await fetch(`${app.base}${path}`, {
      method: "POST",
      headers: { Origin: app.base, "Content-Type": type },
      body,
      redirect: "manual",
    });
    expect(response.status, path).toBe(415);
    expect(response.headers.get("set-cookie"), path).toBeNull();
    expect(await response.text()).toContain("pages accept HTML form posts");
  }
});

test("multipart bodies: larger only for the owner's pages, and a broken upload from the owner is a clear 400", async () => {
  const post = (path: string, headers: Record<string, string>, body: string | Uint8Array<ArrayBuffer>) =>
    fetch(`${app.base}${path}`, {
      method: "POST",
      headers: { Origin: app.base, ...headers },
      body,
      redirect: "manual",
    });
  const boundary = "----honeyboundary";
  const twoMb = new Uint8Array(
    Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
      ),
      Buffer.alloc(2 * 1024 * 1024, 7),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
  );
  const multipart = { "Content-Type": `multipart/form-data; boundary=${boundary}` };
  // Past the 1 MB page limit: refused on public pages, accepted (then refused for want of a session) on the upload route.
  expect((await post("/contact", multipart, twoMb)).status).toBe(413);
  expect((await post("/admin/%2e%2e/contact", multipart, twoMb)).status).toBe(413);
  expect((await post("/admin/photos", multipart, twoMb)).status).toBe(401);

  const login = await post(
    "/admin/login",
    { "Content-Type": "application/x-www-form-urlencoded" },
    "password=malformed-requests-password",
  );
  const cookie = /(__Host-)?admin_session=[^;]+/.exec(login.headers.get("set-cookie") ?? "")![0];
  for (const body of ["", "--x--", `--${boundary}\r\nContent-Disposition: form-data; name="file"\r\n\r\nunfinished`]) {
    const response = await post("/admin/photos", { ...multipart, Cookie: cookie }, body);
    expect(response.status, JSON.stringify(body)).toBe(400);
    expect((await response.json()).error).toMatch(/incomplete|Choose a photo/);
  }
  const stored = await post("/admin/photos", { ...multipart, Cookie: cookie }, twoMb);
  expect(stored.status).toBe(422);
  expect((await stored.json()).error).toMatch(/^"a\.jpg" is not a photo we can read/);
});
