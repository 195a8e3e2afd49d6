import type { DatabaseHandle } from "~/db/client.server";
import { testContext } from "../setup/test-db";

/** Helpers for calling the admin content routes' loaders and actions directly, as the router would. */
export const BASE = "http://localhost:3000";

export interface Answer {
  status: number;
  body: Record<string, unknown>;
  headers: Headers;
}

/** Calls a loader or action; a thrown Response or data() is an answer, anything else is rethrown (a server error). */
export async function call(handle: DatabaseHandle, fn: (args: never) => unknown, request: Request, params: Record<string, string> = {}): Promise<Answer> {
  const unwrap = (value: unknown): Answer => {
    const v = value as { type?: string; data?: unknown; init?: ResponseInit };
    if (v?.type === "DataWithResponseInit") return { status: v.init?.status ?? 200, body: (v.data ?? {}) as Record<string, unknown>, headers: new Headers(v.init?.headers) };
    if (value instanceof Response) return { status: value.status, body: {}, headers: value.headers };
    return { status: 200, body: value as Record<string, unknown>, headers: new Headers() };
  };
  try {
    return unwrap(await fn({ request, params, context: testContext(handle) } as never));
  } catch (thrown) {
    if (thrown instanceof Response || (thrown as { type?: string })?.type === "DataWithResponseInit") return unwrap(thrown);
    throw thrown;
  }
}

/** A urlencoded POST, as a form without photos sends it. */
export function post(path: string, fields: Record<string, string> | [string, string][], cookie?: string): Request {
  return new Request(`${BASE}${path}`, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: BASE, ...(cookie ? { Cookie: cookie } : {}) },
  });
}

/** A multipart POST, as a form with a PhotoPicker sends it (photoSrc / photoAlt repeated in order). */
export function multipart(path: string, fields: [string, string][], cookie?: string): Request {
  const body = new FormData();
  for (const [name, value] of fields) body.append(name, value);
  return new Request(`${BASE}${path}`, { method: "POST", body, headers: { Origin: BASE, ...(cookie ? { Cookie: cookie } : {}) } });
}

export const get = (path: string, cookie?: string) => new Request(`${BASE}${path}`, { headers: cookie ? { Cookie: cookie } : {} });

/** The toast a redirect after a save carries (the flash cookie), decoded. */
export function toastOf(answer: Answer): { title: string; description?: string } | null {
  const cookie = answer.headers.get("set-cookie") ?? "";
  const match = /admin_toast=([^;]+)/.exec(cookie);
  return match ? (JSON.parse(Buffer.from(match[1]!, "base64url").toString("utf8")) as { title: string; description?: string }) : null;
}
