import { expect, test } from "./support/test";
import pg from "pg";
import { startFakeYoco, type FakeYoco } from "../fakes/yoco-server";
import { createPostgresDatabase, startInstance, type Instance } from "./support/instances";

// Two app processes on one real PostgreSQL, as behind a load balancer, both taking payments through a
// fake Yoco on 127.0.0.1: whatever one instance knows (sessions, login failures, stock held, webhooks
// seen) the other knows too, because it lives in the database.
const PG_URL = process.env.E2E_PG_URL;
test.skip(!PG_URL, "needs a PostgreSQL server: set E2E_PG_URL (CI does)");
test.describe.configure({ mode: "serial" });
test.setTimeout(120_000);

const PASSWORD = "two-instance-password";
const UA = "Mozilla/5.0 (X11; Linux x86_64) multi-instance-test";
let one: Instance;
let two: Instance;
let yoco: FakeYoco;
let db: pg.Client;

test.beforeAll(async () => {
  const database = await createPostgresDatabase("multi");
  yoco = await startFakeYoco();
  const env = {
    DATABASE_URL: database.url,
    YOCO_SECRET_KEY: yoco.secretKey,
    YOCO_WEBHOOK_SECRET: yoco.webhookSecret,
    YOCO_API_BASE: yoco.base,
    ADMIN_PASSWORD: PASSWORD,
    // One secret for the cluster, as the README's deployment steps ask.
    SESSION_SECRET: "a-shared-session-secret-of-at-least-32-characters",
    // As behind the load balancer: each buyer arrives from an address of their own (one address may hold
    // only a few unpaid units, decision 079).
    TRUST_PROXY: "1",
  };
  // The first start migrates and seeds; the second finds everything in place.
  one = await startInstance(env);
  two = await startInstance(env);
  db = new pg.Client({ connectionString: database.url });
  await db.connect();
});

test.afterAll(async () => {
  await Promise.all([one?.stop(), two?.stop()]);
  await db?.end();
  await yoco?.close();
});

function signIn(instance: Instance, password: string, userAgent = UA) {
  return fetch(`${instance.base}/admin/login`, {
    method: "POST",
    redirect: "manual",
    headers: { Origin: instance.base, "Content-Type": "application/x-www-form-urlencoded", "User-Agent": userAgent },
    body: new URLSearchParams({ password }),
  });
}

const sessionCookie = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";", 1)[0])
    // `__Host-admin_session` in production, which the built app is by default (decision 079).
    .find((pair) => /^(__Host-)?admin_session=/.test(pair));

test("an admin session made on one instance works on the other, and logging out there ends it everywhere", async () => {
  const login = await signIn(one, PASSWORD);
  expect(login.status).toBe(302);
  const cookie = sessionCookie(login);
  expect(cookie).toBeTruthy();

  const dashboard = await fetch(`${two.base}/admin`, {
    redirect: "manual",
    headers: { Cookie: cookie!, "User-Agent": UA },
  });
  expect(dashboard.status).toBe(200);
  expect(await dashboard.text()).toContain("Total Visitors");

  const logout = await fetch(`${two.base}/admin/logout`, {
    method: "POST",
    redirect: "manual",
    headers: {
      Cookie: cookie!,
      Origin: two.base,
      "User-Agent": UA,
      "Content-Type": "application/x-www-form-urlencoded",
    },
    body: "",
  });
  expect(logout.status).toBe(302);
  const after = await fetch(`${one.base}/admin`, {
    redirect: "manual",
    headers: { Cookie: cookie!, "User-Agent": UA },
  });
  expect(after.status).toBe(302);
  expect(after.headers.get("location")).toMatch(/\/admin\/login$/);
});

test("the login limit counts failures made on both instances", async () => {
  const agent = `${UA} limit`;
  for (const instance of [one, two, one, two]) {
    expect((await signIn(instance, "wrong-password", agent)).status).toBe(401);
  }
  // The fifth failure, on either instance, reaches the limit and says so.
  expect((await signIn(one, "wrong-password", agent)).status).toBe(429);
  // Now even the right password is refused, on both instances.
  for (const instance of [two, one]) {
    const refused = await signIn(instance, PASSWORD, agent);
    expect(refused.status).toBe(429);
    expect(sessionCookie(refused)).toBeUndefined();
    expect(await refused.text()).toContain("Too many failed sign-ins");
  }
});

function checkout(instance: Instance, item: string, buyer: number) {
  const fields = {
    type: "product",
    item,
    firstName: "Racing",
    lastName: `Buyer ${buyer}`,
    email: `buyer${buyer}@example.com`,
    phone: "0821234567",
    address: "1 Long Street\nCape Town",
  };
  return fetch(`${instance.base}/checkout?${new URLSearchParams({ type: "product", item })}`, {
    method: "POST",
    redirect: "manual",
    headers: {
      Origin: instance.base,
      "Content-Type": "application/x-www-form-urlencoded",
      "User-Agent": `${UA} buyer ${buyer}`,
      "X-Forwarded-For": `198.51.100.${buyer + 1}`,
    },
    body: new URLSearchParams(fields),
  });
}

const count = async (query: string, params: unknown[] = []) => Number((await db.query(query, params)).rows[0].n);

test("fifty buyers on two instances race for the last ten candy earrings: exactly ten reach the payment page", async () => {
  const answers = await Promise.all(
    Array.from({ length: 50 }, (_, i) => checkout(i % 2 ? two : one, "Candy Earrings", i)),
  );
  const toPayment = answers.filter(
    (a) => a.status === 302 && a.headers.get("location")?.startsWith("https://c.yoco.com/checkout/"),
  );
  expect(toPayment).toHaveLength(10);
  for (const refused of answers.filter((a) => a.status !== 302)) {
    expect(refused.status).toBeLessThan(500);
    expect(await refused.text()).toContain("Candy Earrings is sold out.");
  }
  const held = await count(
    "select coalesce(sum(h.quantity), 0)::int as n from stock_holds h " +
      "join catalog_items c on h.stock_key = 'catalog:' || c.id where c.slug = 'candy-earrings' and h.status = 'held'",
  );
  expect(held).toBe(10);
});

test("a payment webhook delivered to both instances at once is processed once", async () => {
  const created = await checkout(one, "Test Product", 100);
  expect(created.status).toBe(302);
  const checkoutId = created.headers.get("location")!.split("/").pop()!;
  const delivery = yoco.pay(checkoutId);
  const answers = await Promise.all(
    [one, two, one, two].map((instance) =>
      fetch(`${instance.base}/api/webhooks/yoco`, {
        method: "POST",
        headers: { "Content-Type": "application/json", ...delivery.headers },
        body: delivery.body,
      }),
    ),
  );
  for (const answer of answers) expect(answer.status).toBe(200);

  const [order] = (
    await db.query("select id, status, completed_at from orders where yoco_checkout_id = $1", [checkoutId])
  ).rows;
  expect(order).toMatchObject({ status: "paid" });
  expect(order.completed_at).toBeTruthy();
  expect(
    await count("select count(*)::int as n from payment_webhook_events where webhook_id = $1", [
      delivery.headers["webhook-id"],
    ]),
  ).toBe(1);
  expect(await count("select count(*)::int as n from email_outbox where dedupe_key like $1", [`%${order.id}%`])).toBe(
    2,
  );
});

test(
  "a photo uploaded through one instance is served by the other, and an edit through one shows on the other's " +
    "cached page at once",
  async () => {
    const cookie = sessionCookie(await signIn(one, PASSWORD))!;
    const sharp = (await import("sharp")).default;
    const jpeg = await sharp({
      create: { width: 900, height: 1200, channels: 3, background: { r: 200, g: 120, b: 40 } },
    })
      .jpeg()
      .toBuffer();
    const upload = new FormData();
    upload.append("file", new Blob([new Uint8Array(jpeg)], { type: "image/jpeg" }), "dress.jpg");
    const uploaded = await fetch(`${one.base}/admin/photos`, {
      method: "POST",
      body: upload,
      headers: { Cookie: cookie, Origin: one.base, "User-Agent": UA },
    });
    expect(uploaded.status).toBe(201);
    const { photo } = (await uploaded.json()) as { photo: { src: string } };
    const served = await fetch(`${two.base}${photo.src}`);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/webp");

    // The other instance has the product page in its cache before the edit.
    const page = () => fetch(`${two.base}/product/crochet-earrings`).then((r) => r.text());
    expect(await page()).toContain("R 200.00");
    expect(await page()).toContain("R 200.00");
    const [item] = (await db.query("select id from catalog_items where slug = 'crochet-earrings'")).rows as {
      id: number;
    }[];
    const form = new FormData();
    for (const [k, v] of Object.entries({
      intent: "save",
      name: "Crochet Earrings",
      slug: "crochet-earrings",
      kind: "product",
      price: "245",
      description: "Crocheted by hand.",
      stock: "",
      visible: "on",
      sortOrder: "6",
      photoSrc: photo.src,
      photoAlt: "Crochet earrings on a Honey",
    })) {
      form.append(k, v);
    }
    const saved = await fetch(`${one.base}/admin/products/${item!.id}`, {
      method: "POST",
      redirect: "manual",
      body: form,
      headers: { Cookie: cookie, Origin: one.base, "User-Agent": UA },
    });
    expect(saved.status).toBe(302);
    const after = await page();
    expect(after).toContain("R 245.00");
    expect(after).toContain(photo.src);
  },
);
