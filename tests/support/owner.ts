import { createAdminSession } from "~/admin/session.server";
import type { AppConfig } from "~/config.server";
import type { DatabaseHandle } from "~/db/client.server";
import type { Clock } from "~/lib/clock";
import { testContext } from "./test-db";

/**
 * The owner signed in: a fresh admin session in the test database, as the `Cookie` header value
 * (`admin_session=…`) a request sends. The session starts at the clock's time, so a test that moves
 * the clock past its expiry signs in again.
 */
export async function signedInOwner(
  handle: DatabaseHandle,
  options: { config?: Partial<AppConfig>; clock?: Clock; userAgent?: string } = {},
): Promise<string> {
  const setCookie = await createAdminSession(testContext(handle, options), options.userAgent ?? "vitest");
  return setCookie.split(";", 1)[0]!;
}
