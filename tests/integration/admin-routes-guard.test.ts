import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/db/client.server";
import { asc } from "drizzle-orm";
import {
  adminAuditLog,
  analyticsEvents,
  appSettings,
  blogPosts,
  catalogItems,
  checkIns,
  contactSubmissions,
  eventSessions,
  galleryPhotos,
  membershipTiers,
  orders,
  refunds,
} from "~/db/schema";
import { GALLERY_SEED } from "~/content/gallery";
import routes from "~/routes";
import { callThroughMiddleware, importRoute } from "../support/route-middleware";
import { createTestDatabase, testContext } from "../support/test-db";
import { signedInOwner } from "../support/owner";
import { routeAnswer } from "../support/route-answer";

/**
 * Reads app/routes.ts and proves that every admin loader, action and data endpoint refuses an
 * anonymous request: pages redirect to /admin/login, data endpoints answer 401, and no response
 * carries any of the stored data. A new admin route, a new handler on one, or a new route that
 * checks the admin session fails this file until it is listed below. Each request goes through the
 * middleware of the route's layouts in app/routes.ts, as React Router runs it, then the handler
 * (decision 110: the session is checked by middleware only).
 */

const APP_DIR = fileURLToPath(new URL("../../app/", import.meta.url));
const BASE = "http://localhost:3000";
const SECRET = "zz-secret-marker";
/** A draft (id 3) whose text only the owner may read. */
const GUARD_DRAFT = "zz-guard-draft";

type Handler = "loader" | "action";
type Expectation = "redirect-to-login" | "401" | "redirect-to-admin-without-data";
interface Case {
  name: string;
  handler: Handler;
  method: "GET" | "POST";
  url: string;
  params?: Record<string, string>;
  form?: Record<string, string>;
  expect: Expectation;
}

const EXPORT_KINDS = ["contacts", "orders", "events"];
const GUARD_ORDER_ID = "5f0c6f8e-1b2a-4c3d-9e8f-7a6b5c4d3e2f";

/** Every route file whose loader or action is for the admin only, with the anonymous requests to try. */
const GUARDED: Record<string, Case[]> = {
  "routes/admin/dashboard.tsx": [
    { name: "dashboard", handler: "loader", method: "GET", url: "/admin", expect: "redirect-to-login" },
    ...["today", "7d", "30d", "90d", "all", "nonsense"].map((period): Case => ({
      name: `dashboard, period ${period}`,
      handler: "loader",
      method: "GET",
      url: `/admin?period=${period}`,
      expect: "redirect-to-login",
    })),
  ],
  "routes/admin/layout.tsx": [
    { name: "admin layout", handler: "loader", method: "GET", url: "/admin/products", expect: "redirect-to-login" },
  ],
  "routes/admin/orders.tsx": [
    { name: "orders", handler: "loader", method: "GET", url: "/admin/orders", expect: "redirect-to-login" },
    {
      name: "orders search",
      handler: "loader",
      method: "GET",
      url: `/admin/orders?q=zz-secret@example.test&status=paid&type=product&from=2020-01-01&to=2030-01-01&event=sip-style`,
      expect: "redirect-to-login",
    },
  ],
  "routes/admin/orders-export.ts": [
    { name: "orders CSV", handler: "loader", method: "GET", url: "/admin/orders/export", expect: "401" },
    {
      name: "orders CSV, searched",
      handler: "loader",
      method: "GET",
      url: `/admin/orders/export?q=${SECRET}`,
      expect: "401",
    },
  ],
  "routes/admin/order.tsx": [
    {
      name: "an order",
      handler: "loader",
      method: "GET",
      url: `/admin/orders/${GUARD_ORDER_ID}`,
      params: { id: GUARD_ORDER_ID },
      expect: "redirect-to-login",
    },
    {
      name: "an unknown order",
      handler: "loader",
      method: "GET",
      url: "/admin/orders/nope",
      params: { id: "nope" },
      expect: "redirect-to-login",
    },
    ...(["fulfil", "refund", "resend", "note"] as const).map((intent): Case => ({
      name: `order action ${intent}`,
      handler: "action",
      method: "POST",
      url: `/admin/orders/${GUARD_ORDER_ID}`,
      params: { id: GUARD_ORDER_ID },
      form: { intent, method: "posted", amount: "450", key: "guard-key-123456", note: "anon note" },
      expect: "redirect-to-login",
    })),
  ],
  "routes/admin/products.tsx": [
    { name: "product list", handler: "loader", method: "GET", url: "/admin/products", expect: "redirect-to-login" },
    {
      name: "product search",
      handler: "loader",
      method: "GET",
      url: `/admin/products?q=${SECRET}&kind=product&page=2`,
      expect: "redirect-to-login",
    },
  ],
  "routes/admin/product-edit.tsx": [
    {
      name: "new product form",
      handler: "loader",
      method: "GET",
      url: "/admin/products/new",
      expect: "redirect-to-login",
    },
    {
      name: "edit product form",
      handler: "loader",
      method: "GET",
      url: "/admin/products/1",
      params: { id: "1" },
      expect: "redirect-to-login",
    },
    {
      name: "edit unknown product",
      handler: "loader",
      method: "GET",
      url: "/admin/products/999999",
      params: { id: "999999" },
      expect: "redirect-to-login",
    },
    {
      name: "create a product",
      handler: "action",
      method: "POST",
      url: "/admin/products/new",
      form: { name: "Anon product", kind: "product", price: "10", description: "D", visible: "on" },
      expect: "redirect-to-login",
    },
    {
      name: "change a product's price",
      handler: "action",
      method: "POST",
      url: "/admin/products/1",
      params: { id: "1" },
      form: { name: "Choker Necklaces", kind: "product", price: "1", description: "D" },
      expect: "redirect-to-login",
    },
    {
      name: "delete a product",
      handler: "action",
      method: "POST",
      url: "/admin/products/1",
      params: { id: "1" },
      form: { intent: "delete" },
      expect: "redirect-to-login",
    },
  ],
  "routes/admin/product-options.tsx": [
    {
      name: "a product's sizes and colours",
      handler: "loader",
      method: "GET",
      url: "/admin/products/1/options",
      params: { id: "1" },
      expect: "redirect-to-login",
    },
    {
      name: "give a product sizes",
      handler: "action",
      method: "POST",
      url: "/admin/products/1/options",
      params: { id: "1" },
      form: { name1: "Size", values1: "S, M, L" },
      expect: "redirect-to-login",
    },
  ],
  "routes/admin/events.tsx": [
    { name: "event list", handler: "loader", method: "GET", url: "/admin/events", expect: "redirect-to-login" },
  ],
  "routes/admin/event-edit.tsx": [
    { name: "new event form", handler: "loader", method: "GET", url: "/admin/events/new", expect: "redirect-to-login" },
    {
      name: "edit event form",
      handler: "loader",
      method: "GET",
      url: "/admin/events/sip-style",
      params: { id: "sip-style" },
      expect: "redirect-to-login",
    },
    {
      name: "edit unknown event",
      handler: "loader",
      method: "GET",
      url: "/admin/events/no-such-event",
      params: { id: "no-such-event" },
      expect: "redirect-to-login",
    },
    {
      name: "create an event",
      handler: "action",
      method: "POST",
      url: "/admin/events/new",
      form: {
        title: "Anon event",
        location: "L",
        focus: "F",
        description: "D",
        "option.0.type": "Seat",
        "option.0.price": "1",
        "option.0.capacity": "2",
      },
      expect: "redirect-to-login",
    },
    {
      name: "change an event and its ticket prices",
      handler: "action",
      method: "POST",
      url: "/admin/events/sip-style",
      params: { id: "sip-style" },
      form: {
        title: "Anon title",
        location: "L",
        focus: "F",
        description: "D",
        "option.0.id": "1",
        "option.0.type": "Early Bird",
        "option.0.price": "1",
      },
      expect: "redirect-to-login",
    },
    {
      name: "remove a ticket option",
      handler: "action",
      method: "POST",
      url: "/admin/events/sip-style",
      params: { id: "sip-style" },
      form: { title: "Sip & Style at Nanas", "option.0.id": "1", "option.0.remove": "on" },
      expect: "redirect-to-login",
    },
    {
      name: "delete an event",
      handler: "action",
      method: "POST",
      url: "/admin/events/sip-style",
      params: { id: "sip-style" },
      form: { intent: "delete" },
      expect: "redirect-to-login",
    },
  ],
  "routes/admin/messages.tsx": [
    { name: "messages", handler: "loader", method: "GET", url: "/admin/messages", expect: "redirect-to-login" },
    {
      name: "messages search",
      handler: "loader",
      method: "GET",
      url: `/admin/messages?q=${SECRET}`,
      expect: "redirect-to-login",
    },
    {
      name: "mark a message answered",
      handler: "action",
      method: "POST",
      url: "/admin/messages",
      form: { id: "1", answered: "yes" },
      expect: "redirect-to-login",
    },
  ],
  "routes/admin/attendees.tsx": [
    {
      name: "attendees",
      handler: "loader",
      method: "GET",
      url: "/admin/events/tablecloth-workshop/attendees",
      params: { id: "tablecloth-workshop" },
      expect: "redirect-to-login",
    },
    {
      name: "attendees search",
      handler: "loader",
      method: "GET",
      url: `/admin/events/tablecloth-workshop/attendees?q=${SECRET}`,
      params: { id: "tablecloth-workshop" },
      expect: "redirect-to-login",
    },
  ],
  "routes/admin/event-sessions.tsx": [
    {
      name: "session dates",
      handler: "loader",
      method: "GET",
      url: "/admin/events/tablecloth-workshop/sessions",
      params: { id: "tablecloth-workshop" },
      expect: "redirect-to-login",
    },
    {
      name: "add a session",
      handler: "action",
      method: "POST",
      url: "/admin/events/tablecloth-workshop/sessions",
      params: { id: "tablecloth-workshop" },
      form: { date: "2030-01-05", start: "10:00", end: "13:00", capacity: "" },
      expect: "redirect-to-login",
    },
    {
      name: "remove a session",
      handler: "action",
      method: "POST",
      url: "/admin/events/tablecloth-workshop/sessions",
      params: { id: "tablecloth-workshop" },
      form: { intent: "remove", sessionId: "1" },
      expect: "redirect-to-login",
    },
  ],
  "routes/admin/event-waiting-list.tsx": [
    {
      name: "waiting list",
      handler: "loader",
      method: "GET",
      url: "/admin/events/tablecloth-workshop/waiting-list",
      params: { id: "tablecloth-workshop" },
      expect: "redirect-to-login",
    },
    {
      name: "remove someone from the waiting list",
      handler: "action",
      method: "POST",
      url: "/admin/events/tablecloth-workshop/waiting-list",
      params: { id: "tablecloth-workshop" },
      form: { intent: "remove", entryId: "1" },
      expect: "redirect-to-login",
    },
  ],
  "routes/admin/check-in.tsx": [
    { name: "check-in page", handler: "loader", method: "GET", url: "/admin/check-in", expect: "redirect-to-login" },
    {
      name: "check in by form",
      handler: "action",
      method: "POST",
      url: "/admin/check-in",
      form: { code: "guard-code", deviceId: "guard" },
      expect: "redirect-to-login",
    },
    {
      name: "undo by form",
      handler: "action",
      method: "POST",
      url: "/admin/check-in",
      form: { intent: "undo", deviceId: "guard" },
      expect: "redirect-to-login",
    },
  ],
  "routes/admin-attendees-csv.ts": [
    {
      name: "attendees CSV",
      handler: "loader",
      method: "GET",
      url: "/admin/events/tablecloth-workshop/attendees.csv",
      params: { id: "tablecloth-workshop" },
      expect: "401",
    },
  ],
  "routes/admin-check-in-data.ts": [
    {
      name: "door ticket list",
      handler: "loader",
      method: "GET",
      url: "/admin/check-in/data?event=tablecloth-workshop&session=",
      expect: "401",
    },
    {
      name: "door scan",
      handler: "action",
      method: "POST",
      url: "/admin/check-in/data",
      form: { payload: JSON.stringify({ intent: "scan", deviceId: "guard", code: "guard-code" }) },
      expect: "401",
    },
    {
      name: "door sync",
      handler: "action",
      method: "POST",
      url: "/admin/check-in/data",
      form: {
        payload: JSON.stringify({
          intent: "sync",
          deviceId: "guard",
          scans: [{ clientScanId: "g1", code: "guard-code", scannedAt: "2025-09-10T08:00:00Z" }],
        }),
      },
      expect: "401",
    },
    {
      name: "door undo",
      handler: "action",
      method: "POST",
      url: "/admin/check-in/data",
      form: { payload: JSON.stringify({ intent: "undo", deviceId: "guard" }) },
      expect: "401",
    },
  ],
  "routes/admin/activity.tsx": [
    { name: "activity", handler: "loader", method: "GET", url: "/admin/activity", expect: "redirect-to-login" },
  ],
  "routes/admin/newsletters.tsx": [
    { name: "newsletters", handler: "loader", method: "GET", url: "/admin/newsletters", expect: "redirect-to-login" },
  ],
  "routes/admin/newsletter-edit.tsx": [
    {
      name: "new newsletter form",
      handler: "loader",
      method: "GET",
      url: "/admin/newsletters/new",
      expect: "redirect-to-login",
    },
    {
      name: "send a newsletter to all subscribers",
      handler: "action",
      method: "POST",
      url: "/admin/newsletters/new",
      form: { intent: "send", postId: "", title: "Anon", body: "Anon", segment: "subscribers", sendAt: "" },
      expect: "redirect-to-login",
    },
    {
      name: "a newsletter's page",
      handler: "loader",
      method: "GET",
      url: "/admin/newsletters/1",
      params: { id: "1" },
      expect: "redirect-to-login",
    },
  ],
  "routes/admin/data-requests.tsx": [
    {
      name: "data requests",
      handler: "loader",
      method: "GET",
      url: "/admin/data-requests",
      expect: "redirect-to-login",
    },
    {
      name: "schedule an erasure for someone",
      handler: "action",
      method: "POST",
      url: "/admin/data-requests",
      form: { intent: "schedule", email: "guard@example.test", openOrders: "wait" },
      expect: "redirect-to-login",
    },
  ],
  "routes/admin/codes.tsx": [
    { name: "discount codes", handler: "loader", method: "GET", url: "/admin/codes", expect: "redirect-to-login" },
  ],
  "routes/admin/code-edit.tsx": [
    { name: "new code form", handler: "loader", method: "GET", url: "/admin/codes/new", expect: "redirect-to-login" },
    {
      name: "edit code form",
      handler: "loader",
      method: "GET",
      url: "/admin/codes/1",
      params: { id: "1" },
      expect: "redirect-to-login",
    },
    {
      name: "make a code that gives everything away",
      handler: "action",
      method: "POST",
      url: "/admin/codes/new",
      form: { code: "ANON100", kind: "percent", percent: "100", scope: "everything", active: "on" },
      expect: "redirect-to-login",
    },
    {
      name: "change a code",
      handler: "action",
      method: "POST",
      url: "/admin/codes/1",
      params: { id: "1" },
      form: { code: "ANON100", kind: "percent", percent: "100", scope: "everything", active: "on" },
      expect: "redirect-to-login",
    },
  ],
  "routes/admin/memberships.tsx": [
    {
      name: "membership tiers",
      handler: "loader",
      method: "GET",
      url: "/admin/memberships",
      expect: "redirect-to-login",
    },
    {
      name: "change a tier's price and hide it",
      handler: "action",
      method: "POST",
      url: "/admin/memberships",
      form: { slug: "style-starter", name: "Anon tier", price: "1", description: "D", benefits: "B", sortOrder: "1" },
      expect: "redirect-to-login",
    },
  ],
  "routes/admin/blog.tsx": [
    { name: "blog posts", handler: "loader", method: "GET", url: "/admin/blog", expect: "redirect-to-login" },
    {
      name: "blog posts, page 2",
      handler: "loader",
      method: "GET",
      url: "/admin/blog?page=2",
      expect: "redirect-to-login",
    },
  ],
  "routes/admin/blog-edit.tsx": [
    { name: "new post form", handler: "loader", method: "GET", url: "/admin/blog/new", expect: "redirect-to-login" },
    {
      name: "edit post form",
      handler: "loader",
      method: "GET",
      url: "/admin/blog/1",
      params: { id: "1" },
      expect: "redirect-to-login",
    },
    {
      name: "edit a draft",
      handler: "loader",
      method: "GET",
      url: "/admin/blog/3",
      params: { id: "3" },
      expect: "redirect-to-login",
    },
    {
      name: "create a post",
      handler: "action",
      method: "POST",
      url: "/admin/blog/new",
      form: { intent: "save-publish", title: "Anon post", excerpt: "E", content: "C" },
      expect: "redirect-to-login",
    },
    {
      name: "edit a post",
      handler: "action",
      method: "POST",
      url: "/admin/blog/1",
      params: { id: "1" },
      form: { intent: "save", title: "Anon title", excerpt: "E", content: "C" },
      expect: "redirect-to-login",
    },
    ...["publish", "unpublish", "delete"].map((intent): Case => ({
      name: `${intent} a post`,
      handler: "action",
      method: "POST",
      url: "/admin/blog/1",
      params: { id: "1" },
      form: { intent },
      expect: "redirect-to-login",
    })),
    {
      name: "publish the draft",
      handler: "action",
      method: "POST",
      url: "/admin/blog/3",
      params: { id: "3" },
      form: { intent: "publish" },
      expect: "redirect-to-login",
    },
  ],
  "routes/admin/gallery.tsx": [
    { name: "gallery", handler: "loader", method: "GET", url: "/admin/gallery", expect: "redirect-to-login" },
    {
      name: "add a gallery photo",
      handler: "action",
      method: "POST",
      url: "/admin/gallery",
      form: { intent: "add", photoSrc: "/images/hero/hero.svg", photoAlt: "Anon photo" },
      expect: "redirect-to-login",
    },
    {
      name: "caption a gallery photo",
      handler: "action",
      method: "POST",
      url: "/admin/gallery",
      form: { intent: "caption", id: "1", alt: "Anon alt", caption: "Anon caption" },
      expect: "redirect-to-login",
    },
    {
      name: "move a gallery photo",
      handler: "action",
      method: "POST",
      url: "/admin/gallery",
      form: { intent: "move", id: "1", direction: "down" },
      expect: "redirect-to-login",
    },
    {
      name: "remove a gallery photo",
      handler: "action",
      method: "POST",
      url: "/admin/gallery",
      form: { intent: "remove", id: "1" },
      expect: "redirect-to-login",
    },
  ],
  "routes/admin/settings.tsx": [
    { name: "settings", handler: "loader", method: "GET", url: "/admin/settings", expect: "redirect-to-login" },
    {
      name: "change the contact details and notification email",
      handler: "action",
      method: "POST",
      url: "/admin/settings",
      form: {
        email: "anon@example.test",
        phone: "+27 11 000 0000",
        location: "Anon",
        availability: "Anon",
        facebook: "",
        instagram: "",
        linkedin: "",
        ownerEmail: "anon@example.test",
      },
      expect: "redirect-to-login",
    },
    {
      name: "change the waiting list's offer window",
      handler: "action",
      method: "POST",
      url: "/admin/settings",
      form: { intent: "offer-window", offerHours: "1" },
      expect: "redirect-to-login",
    },
  ],
  "routes/admin-logout.ts": [
    { name: "logout", handler: "action", method: "POST", url: "/admin/logout", expect: "redirect-to-login" },
    // A GET never ends a session and shows nothing: it goes to /admin, which then asks for a sign-in.
    // Under the admin layout's guard (decision 110) an anonymous GET goes to the sign-in page at once rather than by way of /admin.
    { name: "logout by GET", handler: "loader", method: "GET", url: "/admin/logout", expect: "redirect-to-login" },
  ],
  "routes/admin-export.ts": [...EXPORT_KINDS, "unknown", "../secrets"].flatMap((kind): Case[] => [
    {
      name: `CSV export ${kind}`,
      handler: "loader",
      method: "GET",
      url: `/admin/export/${kind}`,
      params: { kind },
      expect: "401",
    },
    {
      name: `CSV export ${kind}, period all`,
      handler: "loader",
      method: "GET",
      url: `/admin/export/${kind}?period=all`,
      params: { kind },
      expect: "401",
    },
  ]),
  "routes/admin/photos.ts": [
    {
      name: "photo upload",
      handler: "action",
      method: "POST",
      url: "/admin/photos",
      form: { file: "x" },
      expect: "401",
    },
  ],
  "routes/blog.tsx": [
    {
      name: "blog: publish a post",
      handler: "action",
      method: "POST",
      url: "/blog",
      form: { intent: "publish", title: "Anon post", excerpt: "E", content: "C" },
      expect: "401",
    },
    {
      name: "blog: any other intent",
      handler: "action",
      method: "POST",
      url: "/blog",
      form: { intent: "delete", slug: "the-art-of-upcycling" },
      expect: "401",
    },
  ],
  "routes/admin/members.tsx": [
    { name: "members", handler: "loader", method: "GET", url: "/admin/members", expect: "redirect-to-login" },
    {
      name: "members search",
      handler: "loader",
      method: "GET",
      url: `/admin/members?q=${SECRET}&tier=style-starter&status=active&page=2`,
      expect: "redirect-to-login",
    },
  ],
  "routes/admin/members-export.ts": [
    { name: "members CSV", handler: "loader", method: "GET", url: "/admin/members/export", expect: "401" },
    {
      name: "members CSV, searched",
      handler: "loader",
      method: "GET",
      url: `/admin/members/export?q=${SECRET}&status=active`,
      expect: "401",
    },
  ],
  "routes/admin/member.tsx": [
    {
      name: "a member",
      handler: "loader",
      method: "GET",
      url: "/admin/members/1",
      params: { id: "1" },
      expect: "redirect-to-login",
    },
    {
      name: "an unknown member",
      handler: "loader",
      method: "GET",
      url: "/admin/members/nope",
      params: { id: "nope" },
      expect: "redirect-to-login",
    },
    ...(["gift", "cancel", "resend"] as const).map((intent): Case => ({
      name: `member action ${intent}`,
      handler: "action",
      method: "POST",
      url: "/admin/members/1",
      params: { id: "1" },
      form: { intent, note: "Anon gift" },
      expect: "redirect-to-login",
    })),
  ],
};

/** Routes that look at the admin session without being admin-only, and why each is safe. */
const ADMIN_AWARE_PUBLIC: Record<string, string> = {
  "routes/admin-login.tsx": "the sign-in page itself (a signed-in admin is sent on to /admin)",
  "routes/api.analytics.ts": "drops a signed-in admin's own events; public otherwise (analytics-endpoint.test.ts)",
  "routes/blog.tsx": "its loader shows New Post to an admin only (checked below); its action is guarded above",
  "routes/blog-post.tsx":
    "a signed-in owner previews a members-only post's text, never cached (members-only-posts.test.ts); public otherwise",
};

interface RouteEntry {
  file: string;
  path?: string;
  children?: RouteEntry[];
}
/** Every route with its full path and its layouts' files, outermost first, as app/routes.ts nests them. */
const flatten = (
  entries: RouteEntry[],
  prefix = "",
  layouts: string[] = [],
): { file: string; path: string; layouts: string[] }[] =>
  entries.flatMap((r) => {
    const full = [prefix, r.path ?? ""].filter(Boolean).join("/");
    return [{ file: r.file, path: full, layouts }, ...flatten(r.children ?? [], full, [...layouts, r.file])];
  });

const allRoutes = flatten(routes as RouteEntry[]);
const isAdminPath = (p: string) => /^admin(\/|$)/.test(p) && p !== "admin/login";
const source = (file: string) => fs.readFileSync(path.join(APP_DIR, file), "utf8");
const checksAdmin = (file: string) => /\b(requireAdmin|isAdminRequest)\(/.test(source(file));
const exportedHandlers = (file: string): Handler[] =>
  (["loader", "action"] as const).filter((name) =>
    new RegExp(`export\\s+(async\\s+)?(function|const)\\s+${name}\\b`).test(source(file)),
  );

let handle: DatabaseHandle;

beforeAll(async () => {
  handle = await createTestDatabase();
  await handle.db.insert(contactSubmissions).values({
    firstName: SECRET,
    lastName: "Contact",
    email: "zz-secret@example.test",
    subject: `${SECRET} subject`,
    message: `${SECRET} message`,
  });
  await handle.db.insert(orders).values({
    reference: "HB-GUARD",
    orderType: "product",
    itemName: `${SECRET} item`,
    amountCents: 45000,
    customerFirstName: SECRET,
    customerLastName: "Buyer",
    customerEmail: "zz-secret@example.test",
    customerPhone: "0820000000",
    customerAddress: "Cape Town",
    provider: "simulator",
    idempotencyKey: "guard-1",
    id: GUARD_ORDER_ID,
    status: "paid",
    yocoCheckoutId: "ch_guard",
  });
  await handle.db.insert(blogPosts).values({
    slug: GUARD_DRAFT,
    title: `${SECRET} draft`,
    excerpt: `${SECRET} excerpt`,
    content: `${SECRET} content`,
    publishedOn: "2025-09-01",
    published: false,
  });
  await handle.db.insert(analyticsEvents).values({
    sessionId: "guard-session-1",
    eventType: "page_view",
    pagePath: `/${SECRET}`,
  });
});
afterAll(() => handle?.close());

interface Outcome {
  status: number;
  headers: Headers;
  body: string;
}

async function run(file: string, c: Case, headers: Record<string, string> = {}): Promise<Outcome> {
  const request = new Request(`${BASE}${c.url}`, {
    method: c.method,
    headers: {
      Origin: BASE,
      "User-Agent": "guard-test",
      ...(c.form ? { "Content-Type": "application/x-www-form-urlencoded" } : {}),
      ...headers,
    },
    body: c.method === "POST" ? new URLSearchParams(c.form ?? {}) : undefined,
  });
  const args = {
    request,
    context: testContext(handle),
    params: c.params ?? {},
    url: new URL(request.url),
    pattern: "",
  };
  const answer = await routeAnswer(() => callThroughMiddleware(file, c.handler, args));
  return {
    status: answer.status,
    headers: answer.headers,
    body: typeof answer.body === "string" ? answer.body : JSON.stringify(answer.body ?? null),
  };
}

describe("the list of admin routes is complete", () => {
  it("every admin route in app/routes.ts is listed, with a case for each of its loaders and actions", () => {
    const adminFiles = allRoutes.filter((r) => isAdminPath(r.path)).map((r) => r.file);
    expect(adminFiles.length).toBeGreaterThan(0);
    for (const file of adminFiles) {
      expect(GUARDED[file], `${file} is an admin route without anonymous-request cases`).toBeDefined();
      for (const handler of exportedHandlers(file)) {
        expect(
          GUARDED[file].some((c) => c.handler === handler),
          `${file} exports a ${handler} that no case tries anonymously`,
        ).toBe(true);
      }
    }
  });

  it("every other route that checks the admin session is either guarded here or explained", () => {
    for (const { file, path: routePath } of allRoutes) {
      if (isAdminPath(routePath) || !checksAdmin(file)) continue;
      expect(
        GUARDED[file] ?? ADMIN_AWARE_PUBLIC[file],
        `${file} checks the admin session: list its admin-only handlers in GUARDED or explain it in ADMIN_AWARE_PUBLIC`,
      ).toBeDefined();
    }
    // The lists name real files only.
    for (const file of [...Object.keys(GUARDED), ...Object.keys(ADMIN_AWARE_PUBLIC)]) {
      expect(
        allRoutes.some((r) => r.file === file),
        `${file} is not in app/routes.ts`,
      ).toBe(true);
    }
  });
});

/** A stand-in for each of a path's parameters (":id" and the like): the guard refuses before any is read. */
const fillParams = (routePath: string) => {
  const params: Record<string, string> = {};
  const url = `/${routePath}`.replace(/:(\w+)\??/g, (_m, name: string) => (params[name] = "1"));
  return { url, params };
};

describe("every admin route in app/routes.ts refuses an anonymous GET and POST", () => {
  const adminRoutes = allRoutes.filter((r) => isAdminPath(r.path));
  const sweep = adminRoutes.flatMap((r) =>
    (["GET", "POST"] as const).map((method) => [`${method} /${r.path} (${r.file})`, r, method] as const),
  );

  it("each is behind a layout whose middleware checks the session", async () => {
    for (const r of adminRoutes) {
      const modules = await Promise.all([...r.layouts, r.file].map(importRoute));
      expect(
        modules.some((m) => (m.middleware ?? []).length > 0),
        `${r.file} (/${r.path}) has no guarded layout`,
      ).toBe(true);
      expect(
        checksAdmin(r.file),
        `${r.file} checks the session itself: the layouts' middleware does (decision 110)`,
      ).toBe(false);
    }
  });

  it.each(sweep)("%s", async (_name, r, method) => {
    const { url, params } = fillParams(r.path);
    const handler: Handler = method === "GET" ? "loader" : "action";
    // Pages and sign-out go to the sign-in page, as before; downloads and data endpoints answer 401.
    const isData = r.layouts.includes("routes/admin/data-guard.ts");
    const result = await run(r.file, {
      name: r.path,
      handler,
      method,
      url,
      params,
      form: { intent: "delete", id: "1" },
      expect: isData ? "401" : "redirect-to-login",
    });
    if (isData) {
      expect(result.status).toBe(401);
    } else {
      expect(result.status).toBe(302);
      expect(result.headers.get("location")).toBe("/admin/login");
    }
    expect(result.body).not.toContain(SECRET);
  });
});

const cases = Object.entries(GUARDED).flatMap(([file, list]) =>
  list.map((c) => [`${c.method} ${c.url} (${c.name})`, file, c] as const),
);

describe("an anonymous request is refused, with nothing leaked", () => {
  beforeAll(async () => {
    // A member (id 1) for the member page's refused actions to leave as it is.
    const { members } = await import("~/db/schema");
    await handle.db.insert(members).values({
      name: `${SECRET} member`,
      email: "zz-secret-member@example.test",
      phone: "0820000000",
      tierSlug: "style-starter",
      status: "active",
      paidUntil: "2025-10-01",
      joinedAt: new Date("2025-09-01T10:00:00+02:00"),
    });
  });

  it.each(cases)("%s", async (_name, file, c) => {
    const result = await run(file, c);
    if (c.expect === "redirect-to-login") {
      expect(result.status).toBe(302);
      expect(result.headers.get("location")).toBe("/admin/login");
    } else if (c.expect === "redirect-to-admin-without-data") {
      expect(result.status).toBe(302);
      expect(result.headers.get("location")).toBe("/admin");
    } else {
      expect(result.status).toBe(401);
    }
    expect(result.body).not.toContain(SECRET);
    expect(result.body).not.toContain("zz-secret@example.test");
    expect(result.headers.get("set-cookie") ?? "").not.toMatch(/admin_session=[^;]/);
  });

  it.each(cases.filter(([, , c]) => c.method === "POST"))(
    "%s from another origin with a live admin cookie is refused (403)",
    async (_name, file, c) => {
      const cookie = await signedInOwner(handle, { userAgent: "guard-test" });
      const result = await run(file, c, { Origin: "https://evil.example", Cookie: cookie });
      expect(result.status).toBe(403);
      expect(result.body).not.toContain(SECRET);
    },
  );

  it("an expired or forged session cookie counts as anonymous", async () => {
    for (const cookie of [
      "admin_session=forged-forged-forged-forged-forged",
      "admin_session=",
      "__Host-admin_session=x",
    ]) {
      const page = await run("routes/admin/dashboard.tsx", GUARDED["routes/admin/dashboard.tsx"][0], {
        Cookie: cookie,
      });
      expect(page.status).toBe(302);
      const data = await run("routes/admin-export.ts", GUARDED["routes/admin-export.ts"][0], { Cookie: cookie });
      expect(data.status).toBe(401);
    }
  });

  it("nothing was stored or changed by the refused writes", async () => {
    const posts = await handle.db.select().from(blogPosts);
    expect(posts.some((p) => p.title === "Anon post")).toBe(false);
    const items = await handle.db.select().from(catalogItems);
    expect(items.some((i) => i.name === "Anon product")).toBe(false);
    const first = items.find((i) => i.id === 1);
    expect(first).toMatchObject({ name: "Choker Necklaces", priceCents: 45000, archived: false });
    expect(await handle.db.select().from(adminAuditLog)).toEqual([]);
    const [order] = await handle.db.select().from(orders);
    expect(order).toMatchObject({ status: "paid", fulfilmentStatus: "unfulfilled", ownerNote: null, refundedCents: 0 });
    expect(await handle.db.select().from(refunds)).toEqual([]);
  });

  it("nothing was stored or changed in events and ticket options by the refused writes", async () => {
    // Imported here so that this file's import lines stay as they were (other sections add theirs).
    const { eq } = await import("drizzle-orm");
    const { events, ticketOptions } = await import("~/db/schema");
    const rows = await handle.db.select().from(events);
    expect(rows.some((e) => e.title === "Anon event" || e.title === "Anon title")).toBe(false);
    expect(rows.find((e) => e.id === "sip-style")).toMatchObject({ title: "Sip & Style at Nanas", archived: false });
    const options = await handle.db.select().from(ticketOptions).where(eq(ticketOptions.eventId, "sip-style"));
    expect(options.map((o) => [o.type, o.priceCents])).toEqual(
      expect.arrayContaining([
        ["Early Bird", 35000],
        ["Come With a Friend", 50000],
        ["Normal Price", 45000],
      ]),
    );
    expect(options).toHaveLength(3);
  });

  it("nothing was stored or changed in the tiers, posts, gallery or settings by the refused writes", async () => {
    const tiers = await handle.db.select().from(membershipTiers);
    expect(tiers.find((t) => t.slug === "style-starter")).toMatchObject({
      name: "The Style Starter",
      priceCents: 15000,
      visible: true,
    });
    expect(tiers.some((t) => t.name === "Anon tier")).toBe(false);
    const posts = await handle.db.select().from(blogPosts);
    expect(posts.some((p) => p.title === "Anon post" || p.title === "Anon title")).toBe(false);
    expect(posts.find((p) => p.id === 1)).toMatchObject({ published: true });
    expect(posts.find((p) => p.slug === GUARD_DRAFT)).toMatchObject({ published: false });
    const photos = await handle.db
      .select()
      .from(galleryPhotos)
      .orderBy(asc(galleryPhotos.sortOrder), asc(galleryPhotos.id));
    expect(photos.map((p) => [p.src, p.alt, p.caption])).toEqual(GALLERY_SEED.map((p) => [p.src, p.alt, null]));
    expect((await handle.db.select().from(appSettings)).filter((r) => r.key.startsWith("site."))).toEqual([]);
    expect(await handle.db.select().from(adminAuditLog)).toEqual([]);
  });

  it("the refused door and session writes stored no check-in and no session date", async () => {
    expect(await handle.db.select().from(checkIns)).toEqual([]);
    expect(await handle.db.select().from(eventSessions)).toEqual([]);
  });

  it("the blog page does not offer New Post to a visitor, even when asked for it", async () => {
    const list = await run("routes/blog.tsx", {
      name: "blog",
      handler: "loader",
      method: "GET",
      url: "/blog?new=1",
      expect: "401",
    });
    expect(list.status).toBe(200);
    expect(JSON.parse(list.body)).toMatchObject({ isAdmin: false, newPostOpen: false });
  });

  it("the refused member writes gave no month, cancelled nothing and queued no email", async () => {
    // Imported here so that this file's import lines stay as they were (other sections add theirs).
    const { eq } = await import("drizzle-orm");
    const { emailOutbox, memberPeriods, members } = await import("~/db/schema");
    const [member] = await handle.db.select().from(members).where(eq(members.id, 1));
    expect(member).toMatchObject({
      email: "zz-secret-member@example.test",
      status: "active",
      paidUntil: "2025-10-01",
      cancelledAt: null,
    });
    expect(await handle.db.select().from(memberPeriods)).toEqual([]);
    expect(await handle.db.select().from(emailOutbox).where(eq(emailOutbox.memberId, 1))).toEqual([]);
    expect(await handle.db.select().from(adminAuditLog)).toEqual([]);
  });

  it("the same cases pass for a signed-in admin (so the refusals above are about the session)", async () => {
    const cookie = await signedInOwner(handle, { userAgent: "guard-test" });
    const dashboard = await run("routes/admin/dashboard.tsx", GUARDED["routes/admin/dashboard.tsx"][0], {
      Cookie: cookie,
    });
    expect(dashboard.status).toBe(200);
    expect(dashboard.body).toContain(SECRET);
    for (const kind of EXPORT_KINDS) {
      const csv = await run(
        "routes/admin-export.ts",
        { name: kind, handler: "loader", method: "GET", url: `/admin/export/${kind}`, params: { kind }, expect: "401" },
        { Cookie: cookie },
      );
      expect(csv.status).toBe(200);
      expect(csv.body).toContain(SECRET);
    }
  });
});

it("a signed-in member's session cookie opens no admin route, under its own name or the admin's", async () => {
  const { members } = await import("~/db/schema");
  const { createMemberSession } = await import("~/memberships/member-session.server");
  const context = testContext(handle);
  const [member] = await handle.db
    .insert(members)
    .values({
      email: "guard-member@example.test",
      name: "Guard Member",
      phone: "0820000001",
      tierSlug: "style-starter",
      paidUntil: "2025-10-10",
      joinedAt: context.clock.now(),
    })
    .returning({ id: members.id });
  const memberCookie = (await createMemberSession(handle.db, context, member!.id)).split(";")[0]!;
  expect(memberCookie).toMatch(/^member_session=[A-Za-z0-9_-]{40,}$/);
  const token = memberCookie.slice(memberCookie.indexOf("=") + 1);
  for (const cookie of [memberCookie, `admin_session=${token}`, `${memberCookie}; admin_session=${token}`]) {
    for (const [name, file, c] of cases) {
      const result = await run(file, c, { Cookie: cookie });
      const refused =
        c.expect === "401"
          ? result.status === 401
          : result.status === 302 &&
            result.headers.get("location") === (c.expect === "redirect-to-login" ? "/admin/login" : "/admin");
      expect(refused, `${name} with ${cookie.split("=")[0]}`).toBe(true);
      expect(result.body).not.toContain(SECRET);
    }
  }
});
