import http from "node:http";
import type { ViteDevServer } from "vite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/db/client.server";
import { fixedClock } from "~/lib/clock";
import { eventLoopScheduler, type AdmissionOptions, type Scheduler } from "../../server/admission";
import { createRequestListener } from "../../server/app";
import { listenOnLoopback, testViteServer } from "../support/dev-server";
import { createTestDatabase, testConfig } from "../support/test-db";
import { buyer } from "../support/checkout";

// Till-first admission (issue 22, decision 091) through HTTP: the app listening on 127.0.0.1 with its
// routes from Vite's module graph and the page cache on, as in security-review.test.ts. The bounds are
// shrunk (one bulk request per turn, one on the slow path at a time) so that a handful of page
// requests saturate it; the assertions are about order and answers, never about milliseconds.

const clock = fixedClock("2025-09-10T10:00:00+02:00");
const config = testConfig();
/** A visitor's cookie: the page cannot come from memory, so each request renders on the slow path. */
const COOKIE = { Cookie: "visitor=1" };

let handle: DatabaseHandle;
let vite: ViteDevServer;
const servers: http.Server[] = [];

async function listen(admission: AdmissionOptions) {
  const listener = createRequestListener({ config, database: handle, clock }, { vite, pageCache: true, admission });
  const server = http.createServer(listener);
  servers.push(server);
  return { base: await listenOnLoopback(server), admission: listener.admission! };
}

beforeAll(async () => {
  handle = await createTestDatabase();
  vite = await testViteServer();
});

afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  await vite?.close();
  await handle?.close();
});

/**
 * The event loop's scheduler, except that while it is closed admission's turns wait (the queue is
 * released from these turns): a flood cannot drain before the till arrives, however fast each page
 * renders on the machine running the test. Opening it runs the held turns on the real event loop.
 */
function gatedScheduler() {
  let held: (() => void)[] | undefined;
  const scheduler: Scheduler = {
    ...eventLoopScheduler,
    defer: (fn) => (held ? held.push(fn) : eventLoopScheduler.defer(fn)),
  };
  return {
    scheduler,
    close: () => void (held ??= []),
    open() {
      const turns = held ?? [];
      held = undefined;
      for (const turn of turns) eventLoopScheduler.defer(turn);
    },
  };
}

async function until(condition: () => boolean, what: string) {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

/**
 * The headers of a streamed page arrive before its render ends and frees its slot: a flood sent before
 * then finds the slot taken, and one more request waits than the test counts (seen once in CI).
 */
async function idle(admission: { slowInFlight: () => number; waiting: () => number }) {
  await until(() => admission.slowInFlight() === 0 && admission.waiting() === 0, "the warm-up render to free its slot");
}

describe("when page requests saturate the server", () => {
  it("answers a webhook and a checkout ahead of the page requests queued before them", async () => {
    const gate = gatedScheduler();
    const { base, admission } = await listen({ batchSize: 1, slowConcurrency: 1, scheduler: gate.scheduler });
    // Compile the page's modules once, so that each request in the flood is one ordinary render.
    const warm = await fetch(`${base}/`, { headers: COOKIE });
    await warm.arrayBuffer();
    expect(warm.status).toBe(200);
    await idle(admission);

    // One page starts at once; the others wait for admission's next turn, which waits for the gate.
    // (With the real event loop, a fast machine rendered some before the rest had even arrived.)
    gate.close();
    const FLOOD = 24;
    const finished: string[] = [];
    const done = (name: string) => async (response: Response) => {
      await response.arrayBuffer();
      finished.push(name);
      return response.status;
    };
    const pages = Array.from({ length: FLOOD }, (_, n) =>
      fetch(`${base}/?visit=${n}`, { headers: COOKIE }).then(done(`page ${n}`)),
    );
    // All but one wait behind the one rendering.
    await until(() => admission.waiting() >= FLOOD - 1, "the page requests to queue");
    const queuedBeforeTill = admission.waiting();

    const webhook = fetch(`${base}/api/webhooks/yoco`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ id: "evt_forged", type: "payment.succeeded", payload: {} }),
    }).then(done("webhook"));
    const checkout = fetch(`${base}/checkout?${new URLSearchParams({ type: "product", item: "Test Product" })}`, {
      method: "POST",
      redirect: "manual",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ ...buyer, type: "product", item: "Test Product" }),
    }).then(done("checkout"));

    // A forged delivery is refused (no signature headers) and the order is placed: both answered by
    // the app, neither waiting in the queue.
    expect(await Promise.all([webhook, checkout])).toEqual([400, 302]);
    const pagesBeforeTill = finished.filter((name) => name.startsWith("page")).length;
    gate.open();
    expect(await Promise.all(pages)).toEqual(Array.from({ length: FLOOD }, () => 200));

    // The queue was there, and the till went past it: the pages queued before the webhook and the
    // checkout were answered after both.
    expect(queuedBeforeTill).toBe(FLOOD - 1);
    expect(pagesBeforeTill).toBeLessThanOrEqual(1);
    expect(finished.slice(-FLOOD / 2).every((name) => name.startsWith("page"))).toBe(true);
    expect(admission.stats.till).toBeGreaterThanOrEqual(2);
    expect(admission.stats.shed).toBe(0);
  });

  it("answers 503 with Retry-After, no-store and the security headers past the queue's bound, and stays up", async () => {
    const gate = gatedScheduler();
    const { base, admission } = await listen({
      batchSize: 1,
      slowConcurrency: 1,
      maxQueued: 2,
      retryAfterSeconds: 7,
      scheduler: gate.scheduler,
    });
    const normal = await fetch(`${base}/`, { headers: COOKIE });
    await normal.arrayBuffer();
    expect(normal.status).toBe(200);
    await idle(admission);

    // One starts, two wait for the next turn (held by the gate), the other seventeen are turned away.
    gate.close();
    const answers = Array.from({ length: 20 }, (_, n) =>
      fetch(`${base}/?visit=${n}`, { headers: COOKIE }).then(async (r) => ({ response: r, body: await r.text() })),
    );
    await until(() => admission.stats.shed >= 17, "the requests past the bound to be turned away");
    gate.open();
    const responses = await Promise.all(answers);
    const shed = responses.filter(({ response }) => response.status === 503);
    expect(shed.length).toBe(17);
    expect(admission.stats.shed).toBe(shed.length);
    // Everything else was served in full: waiting, not failing.
    expect(responses.every(({ response }) => response.status === 200 || response.status === 503)).toBe(true);

    const { response, body } = shed[0]!;
    expect(response.headers.get("retry-after")).toBe("7");
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(body).toMatch(/very busy/);
    // The same security headers as a page, with the same values.
    const notSecurity = new Set([
      "content-type",
      "content-length",
      "date",
      "connection",
      "keep-alive",
      "etag",
      "vary",
      "cache-control",
      "retry-after",
      "x-page-cache",
      "content-encoding",
      "transfer-encoding",
    ]);
    const security = [...normal.headers.entries()].filter(([name]) => !notSecurity.has(name));
    expect(security.map(([name]) => name)).toEqual(
      expect.arrayContaining(["x-content-type-options", "x-frame-options", "referrer-policy", "permissions-policy"]),
    );
    for (const [name, value] of security) expect(response.headers.get(name), name).toBe(value);

    // Still alive and admitting once the flood has passed.
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    expect((await fetch(`${base}/`, { headers: COOKIE })).status).toBe(200);
  });
});
