import { readCappedBody } from "~/lib/capped-body.server";

/** Characters no visitor types on purpose; PostgreSQL refuses NUL in text, so they are dropped. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g;

export function withoutControlCharacters(value: string): string {
  return value.replace(CONTROL_CHARACTERS, "");
}

/**
 * Reads a posted form of at most `limitBytes`, or returns null when the body is too large or is not
 * a form at all (JSON, broken multipart).
 */
export async function readSmallForm(request: Request, limitBytes: number): Promise<FormData | null> {
  const contentType = request.headers.get("content-type") ?? "";
  if (!/^(application\/x-www-form-urlencoded|multipart\/form-data)\b/i.test(contentType)) return null;
  try {
    const body = await readCappedBody(request, limitBytes);
    return body && (await new Response(body, { headers: { "content-type": contentType } }).formData());
  } catch {
    return null;
  }
}
