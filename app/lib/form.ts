import type * as z from "zod/mini";

/** What an action answers when the input is refused: a message per field, and what was typed. */
export interface FieldErrors {
  fieldErrors: Record<string, string>;
  values: Record<string, unknown>;
}

/**
 * Validates with the form's one schema; on failure, the first message for each field (the path's
 * first segment, so `photos.2.alt` is reported under `photos.2.alt` and also counted for `photos`).
 */
export function validateForm<S extends z.ZodMiniType>(
  schema: S,
  values: Record<string, unknown>,
): { ok: true; data: z.infer<S> } | ({ ok: false } & FieldErrors) {
  const parsed = schema.safeParse(values);
  if (parsed.success) return { ok: true, data: parsed.data };
  const fieldErrors: Record<string, string> = {};
  for (const issue of parsed.error.issues) {
    const key = issue.path.map(String).join(".") || "form";
    fieldErrors[key] ??= issue.message;
    const top = String(issue.path[0] ?? "form");
    fieldErrors[top] ??= issue.message;
  }
  return { ok: false, fieldErrors, values };
}

/** The text fields of a form as strings (a missing field is ""), for schemas that trim and check them. */
export function textFields<K extends string>(form: FormData, names: readonly K[]): Record<K, string> {
  return Object.fromEntries(
    names.map((name) => {
      const value = form.get(name);
      return [name, typeof value === "string" ? value : ""];
    }),
  ) as Record<K, string>;
}

/** The checkboxes of a form as booleans: a ticked box posts "on", an unticked one posts nothing. */
export function checkboxFields<K extends string>(form: FormData, names: readonly K[]): Record<K, boolean> {
  return Object.fromEntries(names.map((name) => [name, form.get(name) === "on"])) as Record<K, boolean>;
}
