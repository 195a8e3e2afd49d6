import type { ToastMessage } from "~/lib/toast-message";
import { readCookie } from "~/auth/cookies.server";

/**
 * The toast an admin save shows after its redirect ("Product saved"), carried in a short-lived cookie
 * that the admin layout reads once and clears. Only text the server wrote goes in it, and it is
 * rendered as text, so a forged cookie can at most show its sender a message.
 */
const COOKIE = "admin_toast";
const MAX_LENGTH = 300;

export function setToastCookie(message: ToastMessage): string {
  // An id of its own, so the page shows it once however often the loader data that carries it is rendered.
  const withId = { ...message, id: message.id ?? crypto.randomUUID() };
  const value = Buffer.from(JSON.stringify(withId).slice(0, MAX_LENGTH * 2)).toString("base64url");
  // Path=/ because client navigations fetch "/admin/….data" as well as documents.
  return `${COOKIE}=${value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=60`;
}

export function readToastCookie(request: Request): { toast: ToastMessage | null; clear?: string } {
  const raw = readCookie(request, COOKIE);
  if (!raw) return { toast: null };
  const clear = `${COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0`;
  try {
    const parsed = JSON.parse(Buffer.from(raw, "base64url").toString("utf8")) as Partial<ToastMessage>;
    if (typeof parsed.title !== "string") return { toast: null, clear };
    return {
      toast: {
        title: parsed.title.slice(0, MAX_LENGTH),
        description: typeof parsed.description === "string" ? parsed.description.slice(0, MAX_LENGTH) : undefined,
        variant: parsed.variant === "destructive" ? "destructive" : "default",
        id: typeof parsed.id === "string" && /^[\w-]{1,40}$/.test(parsed.id) ? parsed.id : undefined,
      },
      clear,
    };
  } catch {
    return { toast: null, clear };
  }
}
