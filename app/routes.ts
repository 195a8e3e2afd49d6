import { type RouteConfig, index, layout, route } from "@react-router/dev/routes";

/**
 * The owner's admin: one layout (navigation, and the middleware that checks the session) with a
 * child route per section. The sign-in page is the only /admin URL outside it (decision 110).
 */
const admin = [
  index("routes/admin/dashboard.tsx"),
  route("orders", "routes/admin/orders.tsx"),
  route("orders/:id", "routes/admin/order.tsx"),
  route("members", "routes/admin/members.tsx"),
  route("members/:id", "routes/admin/member.tsx"),
  route("products", "routes/admin/products.tsx"),
  route("products/new", "routes/admin/product-edit.tsx", { id: "admin-product-new" }),
  route("products/:id", "routes/admin/product-edit.tsx", { id: "admin-product-edit" }),
  route("events", "routes/admin/events.tsx"),
  route("events/new", "routes/admin/event-edit.tsx", { id: "admin-event-new" }),
  route("events/:id", "routes/admin/event-edit.tsx", { id: "admin-event-edit" }),
  route("messages", "routes/admin/messages.tsx"),
  route("memberships", "routes/admin/memberships.tsx"),
  route("blog", "routes/admin/blog.tsx"),
  route("blog/new", "routes/admin/blog-edit.tsx", { id: "admin-blog-new" }),
  route("blog/:id", "routes/admin/blog-edit.tsx", { id: "admin-blog-edit" }),
  route("gallery", "routes/admin/gallery.tsx"),
  route("settings", "routes/admin/settings.tsx"),
  route("activity", "routes/admin/activity.tsx"),
  route("events/:id/attendees", "routes/admin/attendees.tsx"),
  route("events/:id/sessions", "routes/admin/event-sessions.tsx"),
  route("check-in", "routes/admin/check-in.tsx"),
  route("logout", "routes/admin-logout.ts"),
];

/** The admin's downloads and data endpoints: the same session check, refused with a 401 rather than a redirect. */
const adminData = [
  route("admin/orders/export", "routes/admin/orders-export.ts"),
  route("admin/members/export", "routes/admin/members-export.ts"),
  route("admin/export/:kind", "routes/admin-export.ts"),
  route("admin/events/:id/attendees.csv", "routes/admin-attendees-csv.ts"),
  route("admin/check-in/data", "routes/admin-check-in-data.ts"),
  route("admin/photos", "routes/admin/photos.ts"),
];

export default [
  index("routes/home.tsx"),
  route("styled-collections", "routes/styled-collections.tsx"),
  route("consultation-services", "routes/consultation-services.tsx"),
  route("product/:slug", "routes/product.tsx"),
  route("events", "routes/events.tsx"),
  route("tickets/:eventId", "routes/tickets.tsx"),
  route("workshop/tablecloth-skirt", "routes/workshop-tablecloth-skirt.tsx"),
  route("membership/:tier", "routes/membership.tsx"),
  route("about", "routes/about.tsx"),
  route("contact", "routes/contact.tsx"),
  route("blog", "routes/blog.tsx"),
  route("blog/:slug", "routes/blog-post.tsx"),
  route("events-gallery", "routes/events-gallery.tsx"),
  route("checkout", "routes/checkout.tsx"),
  route("order-confirmation", "routes/order-confirmation.tsx"),
  route("test", "routes/test.tsx"),
  route("account", "routes/account.tsx"),
  route("account/sign-in", "routes/account-sign-in.tsx"),
  route("account/sign-out", "routes/account-sign-out.ts"),
  route("account/receipts/:reference", "routes/account-receipt.tsx"),
  route("account/renew", "routes/account-link.tsx", { id: "account-renew" }),
  route("account/cancel", "routes/account-link.tsx", { id: "account-cancel" }),
  route("admin/login", "routes/admin-login.tsx"),
  route("admin", "routes/admin/layout.tsx", admin),
  layout("routes/admin/data-guard.ts", adminData),
  route("api/analytics", "routes/api.analytics.ts"),
  route("api/webhooks/yoco", "routes/api.webhooks.yoco.ts"),
  route("payments/simulator/:orderId", "routes/payments-simulator.tsx"),
  route("ticket/:code", "routes/ticket.tsx"),
  route("ticket/:code/calendar", "routes/ticket-calendar.ts"),
  route("order/:token", "routes/order.tsx"),
  route("media/:file", "routes/media.ts"),
  route("sitemap.xml", "routes/sitemap.ts"),
  route("robots.txt", "routes/robots.ts"),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
