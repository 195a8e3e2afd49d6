/**
 * The database's tables, one module per capability (drizzle-kit reads this file: drizzle.config.ts).
 */
export * from "./schema/catalog";
export * from "./schema/events";
export * from "./schema/content";
export * from "./schema/analytics";
export * from "./schema/orders";
export * from "./schema/admin";
export * from "./schema/members";
export * from "./schema/order-access";
export * from "./schema/stock";
export * from "./schema/tickets";
export * from "./schema/member-periods";
export * from "./schema/newsletters";
export * from "./schema/data-rights";
export * from "./schema/subscriptions";
export * from "./schema/waitlist";
export * from "./schema/bag";
export * from "./schema/product-options";
export * from "./schema/discount-codes";
