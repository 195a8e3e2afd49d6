import type { DatabaseHandle } from "~/db/client.server";
import { routeAnswer, type RouteAnswer } from "./route-answer";
import { testContext } from "./test-db";

/** Helpers for calling the admin content routes' loaders and actions directly, as the router would. */
export const BASE = "http://localhost:3000";

/** Calls a loader or action as the router would; a thrown Response or data() is an answer, anything else is rethrown (a server error). */
export function call(
  handle: DatabaseHandle,
  fn: (args: never) => unknown,
  request: Request,
  params: Record<string, string> = {},
): Promise<RouteAnswer> {
  return routeAnswer(() => fn({ request, params, context: testContext(handle) } as never));
}

/** A urlencoded POST, as a form without photos sends it. */
export function post(path: string, fields: Record<string, string> | [string, string][], cookie?: string): Request {
  return new Request(`${BASE}${path}`, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      Origin: BASE,
      ...(cookie ? { Cookie: cookie } : {}),
    },
  });
}

/** A multipart POST, as a form with a PhotoPicker sends it (photoSrc / photoAlt repeated in order). */
export function multipart(path: string, fields: [string, string][], cookie?: string): Request {
  const body = new FormData();
  for (const [name, value] of fields) body.append(name, value);
  return new Request(`${BASE}${path}`, {
    method: "POST",
    body,
    headers: { Origin: BASE, ...(cookie ? { Cookie: cookie } : {}) },
  });
}

export const get = (path: string, cookie?: string) =>
  new Request(`${BASE}${path}`, { headers: cookie ? { Cookie: cookie } : {} });

/** The toast a redirect after a save carries (the flash cookie), decoded. */
export function toastOf(answer: RouteAnswer): { title: string; description?: string } | null {
  const cookie = answer.headers.get("set-cookie") ?? "";
  const match = /admin_toast=([^;]+)/.exec(cookie);
  return match
    ? (JSON.parse(Buffer.from(match[1]!, "base64url").toString("utf8")) as { title: string; description?: string })
    : null;
}
