import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { createStaticHandler, createStaticRouter, StaticRouterProvider, useLoaderData } from "react-router";
import AdminLayout, { loader as layoutLoader } from "~/routes/admin/layout";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppContext } from "~/context.server";
import type { DatabaseHandle } from "~/db/client.server";
import { analyticsEvents, contactSubmissions, orders } from "~/db/schema";
import AdminDashboard, { loader } from "~/routes/admin/dashboard";
import { createTestDatabase, testContext } from "../support/test-db";
import { signedInOwner } from "../support/owner";

/**
 * The dashboard as the server renders it for a signed-in admin: the spec's parts and texts, the
 * owner's extras, and the failure state when its data cannot be read.
 */

const NOW = new Date("2025-09-10T10:00:00+02:00");
const ago = (ms: number) => new Date(NOW.getTime() - ms);
let handle: DatabaseHandle;
let cookie: string;

beforeAll(async () => {
  handle = await createTestDatabase({ seed: false });
  cookie = await signedInOwner(handle);
});
afterAll(() => handle?.close());

/** Server-renders /admin with the real loaders and components (the admin layout around the dashboard); returns the HTML as text. */
async function renderDashboard(context: AppContext = testContext(handle), search = "") {
  const request = new Request(`http://localhost:3000/admin${search}`, { headers: { Cookie: cookie } });
  const routes = [
    {
      id: "admin-layout",
      path: "/admin",
      loader: () => layoutLoader({ request, context, params: {} } as never),
      Component: function Layout() {
        const loaderData = useLoaderData() as never;
        return createElement(AdminLayout as never, { loaderData, params: {}, matches: [] } as never);
      },
      children: [
        {
          id: "admin",
          index: true,
          loader: () => loader({ request, context, params: {} } as never),
          Component: function Dashboard() {
            const loaderData = useLoaderData() as never;
            return createElement(AdminDashboard as never, { loaderData, params: {}, matches: [] } as never);
          },
        },
      ],
    },
  ];
  const handler = createStaticHandler(routes);
  const staticContext = await handler.query(request);
  if (staticContext instanceof Response) throw new Error(`redirected to ${staticContext.headers.get("location")}`);
  const router = createStaticRouter(handler.dataRoutes, staticContext);
  const html = renderToString(createElement(StaticRouterProvider, { router, context: staticContext }));
  // Text as a person reads it: tags out, entities decoded, spaces collapsed.
  return html
    .replace(/<!-- -->/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/&amp;/g, "&")
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/\s+/g, " ");
}

describe("the dashboard, empty", () => {
  it("shows Logout, the four counters at 0 and the spec's empty texts", async () => {
    const text = await renderDashboard();
    expect(text).toContain("Logout");
    for (const label of ["Total Visitors 0", "Page Views 0", "Product Views 0", "Event Views 0"])
      expect(text).toContain(label);
    expect(text).toContain("No contact form submissions yet");
    expect(text).toContain("No checkouts found yet");
    expect(text).not.toContain("Error loading analytics");
  });
});

describe("the dashboard, with data", () => {
  beforeAll(async () => {
    await handle.db.insert(contactSubmissions).values({
      firstName: "Thandi",
      lastName: "Mokoena",
      email: "thandi@example.test",
      subject: "Styling session",
      message: "Can we meet on Friday?",
      createdAt: ago(3600_000),
    });
    const order = {
      orderType: "product",
      amountCents: 45000,
      customerPhone: "0820000000",
      customerAddress: "Cape Town",
      provider: "simulator",
    } as const;
    await handle.db.insert(orders).values([
      {
        ...order,
        reference: "HB-V1",
        itemName: "Beaded jewellery",
        status: "paid",
        customerFirstName: "Ayanda",
        customerLastName: "Nkosi",
        customerEmail: "ayanda@example.test",
        idempotencyKey: "v1",
        createdAt: ago(7200_000),
      },
      {
        ...order,
        reference: "HB-V2",
        itemName: "Capsule Reset",
        orderType: "service",
        amountCents: 375000,
        status: "failed",
        customerFirstName: "Lebo",
        customerLastName: "D",
        customerEmail: "lebo@example.test",
        idempotencyKey: "v2",
        createdAt: ago(3600_000),
      },
    ]);
    const events: {
      sessionId: string;
      eventType: string;
      pagePath: string;
      itemName?: string;
      createdAt: Date;
      referrer?: string;
    }[] = [];
    // 12 events so Recent Activity has to cut at 10; the newest first.
    const paths = [
      "/",
      "/",
      "/",
      "/styled-collections",
      "/events",
      "/about",
      "/contact",
      "/blog",
      "/consultation-services",
    ];
    paths.forEach((pagePath, i) =>
      events.push({
        sessionId: `view-${i % 3}`,
        eventType: "page_view",
        pagePath,
        createdAt: ago((i + 3) * 86_400_000),
        referrer: "https://www.google.com/",
      }),
    );
    events.push({
      sessionId: "view-0",
      eventType: "product_view",
      pagePath: "/product/candy-earrings",
      itemName: "Candy earrings",
      createdAt: ago(30_000),
    });
    events.push({
      sessionId: "view-1",
      eventType: "event_view",
      pagePath: "/tickets/sip-style",
      itemName: "Sip & Style",
      createdAt: ago(5 * 60_000),
    });
    events.push({
      sessionId: "view-2",
      eventType: "consultation_booking",
      pagePath: "/product/capsule-reset",
      itemName: "Capsule Reset",
      createdAt: ago(3 * 3600_000),
    });
    await handle.db.insert(analyticsEvents).values(events);
  });

  it("fills the counters, the tables, Recent Activity and Popular Pages as the spec says", async () => {
    const text = await renderDashboard();
    expect(text).toContain("Total Visitors 3");
    expect(text).toContain("Page Views 9");
    expect(text).toContain("Product Views 1");
    expect(text).toContain("Event Views 1");
    // Contact Form Submissions: Date, Name, Email, Subject, Message.
    expect(text).toMatch(
      /Date Name Email Subject Message .*Thandi Mokoena thandi@example\.test Styling session Can we meet on Friday\?/,
    );
    // Recent Checkouts: Date, Customer (with email), Item, Amount as R 450.00, Status, Type.
    expect(text).toMatch(/Date Customer Item Amount Status Type/);
    expect(text).toMatch(/Ayanda Nkosi ayanda@example\.test Beaded jewellery R 450\.00 paid product/);
    expect(text).toMatch(/Lebo D lebo@example\.test Capsule Reset R 3,750\.00 failed service/);
    // Recent Activity: the spec's labels and relative times.
    expect(text).toMatch(/Product viewed Candy earrings Just now/);
    expect(text).toMatch(/Event viewed Sip & Style 5 minutes ago/);
    expect(text).toMatch(/Consultation booked Capsule Reset 3 hours ago/);
    expect(text).toMatch(/Page visited \/ 3 days ago/);
    // Popular Pages: the top 5 with the spec's labels, visits and percentages of all page views.
    expect(text).toMatch(/Home Page 3 33%/);
    const popular = text.slice(text.indexOf("Popular Pages"), text.indexOf("Visitors and Page Views"));
    expect(popular.match(/\d+%/g)).toHaveLength(5);
    expect(popular).toMatch(/About 1 11%/);
    // A Refresh button on each table, and the owner's extras.
    for (const table of ["Contact Form Submissions", "Recent Checkouts", "Recent Activity", "Popular Pages"]) {
      expect(text).toContain(`Refresh ${table}`);
    }
    for (const extra of [
      "Period",
      "Today",
      "Last 7 days",
      "Last 30 days",
      "Last 90 days",
      "All time",
      "Visitors and Page Views",
      "Checkout Funnel",
      "Checkout viewed",
      "Checkout attempted",
      "Checkout created",
      "Paid orders",
      "Top Referrers",
      "www.google.com",
    ]) {
      expect(text).toContain(extra);
    }
    for (const kind of ["contact form submissions", "checkouts", "analytics events"])
      expect(text).toContain(`Export CSV of ${kind}`);
  });

  it("shows exactly 10 rows of Recent Activity", async () => {
    const text = await renderDashboard();
    const activity = text.slice(text.indexOf("Recent Activity"), text.indexOf("Popular Pages"));
    expect(activity.match(/ago|Just now/g)).toHaveLength(10);
  });

  it("says 'Error loading analytics' / 'Failed to fetch analytics data' when its data cannot be read", async () => {
    const context = testContext(handle);
    // The session check still works; the analytics queries fail.
    const failing = new Proxy(context.db, {
      get(target, property, receiver) {
        if (property === "execute") return () => Promise.reject(new Error("relation does not exist"));
        return Reflect.get(target, property, receiver);
      },
    });
    const originalError = console.error;
    console.error = () => {};
    try {
      const text = await renderDashboard({ ...context, db: failing });
      expect(text).toContain("Error loading analytics");
      expect(text).toContain("Failed to fetch analytics data");
      expect(text).toContain("Logout");
      expect(text).not.toContain("Total Visitors");
    } finally {
      console.error = originalError;
    }
  });
});
