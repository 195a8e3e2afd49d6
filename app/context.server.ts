import { RouterContextProvider } from "react-router";
import type { AppConfig } from "./config.server";
import type { Database, DatabaseHandle } from "./db/client.server";
import type { Clock } from "./lib/clock";

/**
 * What every loader and action receives as `context`: the database is never a global import.
 * A type alias rather than an interface so that it fits React Router's index-signature context type.
 */
export type AppContext = {
  db: Database;
  dbHandle: DatabaseHandle;
  config: AppConfig;
  clock: Clock;
  /** A per-request CSP nonce for the inline scripts React Router renders. */
  nonce: string;
  /** The client's address, for rate limits only (never stored). */
  clientIp: string;
  /**
   * Set by `handleError` when a loader or action failed because the database is unreachable.
   * React Router replaces errors with a generic one before rendering in production, so the
   * document renderer cannot inspect them itself; this flag carries the fact across.
   */
  databaseUnavailable?: boolean;
};

/**
 * With middleware on, React Router hands loaders a RouterContextProvider rather than the object
 * getLoadContext returned. The request's AppContext fields ride on the provider itself, so every
 * loader keeps reading `context.db` and `context.clock`, and middleware adds what it finds with
 * `context.set` (decision 110).
 */
export function createAppContext(fields: AppContext): RouterContextProvider & AppContext {
  return Object.assign(new RouterContextProvider(), fields);
}

declare module "react-router" {
  interface AppLoadContext extends AppContext {}
  interface RouterContextProvider extends AppContext {}
}
