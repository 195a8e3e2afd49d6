import { type RouteConfig, index, route } from "@react-router/dev/routes";

/** The owner's admin: one layout (navigation, session check) with a child route per section. */
const admin = [
  index("routes/admin/dashboard.tsx"),
  route("products", "routes/admin/products.tsx"),
  route("products/new", "routes/admin/product-edit.tsx", { id: "admin-product-new" }),
  route("products/:id", "routes/admin/product-edit.tsx", { id: "admin-product-edit" }),
  route("events", "routes/admin/events.tsx"),
  route("events/new", "routes/admin/event-edit.tsx", { id: "admin-event-new" }),
  route("events/:id", "routes/admin/event-edit.tsx", { id: "admin-event-edit" }),
  route("messages", "routes/admin/messages.tsx"),
  route("activity", "routes/admin/activity.tsx"),
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
  route("admin/login", "routes/admin-login.tsx"),
  route("admin", "routes/admin/layout.tsx", admin),
  route("admin/logout", "routes/admin-logout.ts"),
  route("admin/export/:kind", "routes/admin-export.ts"),
  route("api/analytics", "routes/api.analytics.ts"),
  route("api/webhooks/yoco", "routes/api.webhooks.yoco.ts"),
  route("payments/simulator/:orderId", "routes/payments-simulator.tsx"),
  route("sitemap.xml", "routes/sitemap.ts"),
  route("robots.txt", "routes/robots.ts"),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
