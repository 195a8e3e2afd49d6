import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes, TextareaHTMLAttributes } from "react";

const controlClass =
  "mt-1 block min-h-11 w-full rounded-xl border bg-white px-3 py-2 text-ink aria-[invalid=true]:border-red-800 " +
  "aria-[invalid=true]:ring-1 aria-[invalid=true]:ring-red-800";

interface FieldShell {
  label: string;
  name: string;
  error?: string;
  hint?: ReactNode;
  id?: string;
}

function describedBy(id: string, error?: string, hint?: ReactNode) {
  return [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;
}

function Messages({ id, error, hint }: { id: string; error?: string; hint?: ReactNode }) {
  return (
    <>
      {hint ? (
        <p id={`${id}-hint`} className="mt-1 text-sm text-ink-soft">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="mt-1 text-sm font-semibold text-red-800">
          {error}
        </p>
      ) : null}
    </>
  );
}

/** The attributes every control shares: its id and name, and its state and messages for assistive technology. */
function controlProps(id: string, name: string, error?: string, hint?: ReactNode) {
  return {
    id,
    name,
    "aria-invalid": error ? true : undefined,
    "aria-describedby": describedBy(id, error, hint),
    className: `${controlClass} border-ink/30`,
  };
}

/** A control with its visible label above it and its hint and message below. */
function Labelled({
  id,
  label,
  error,
  hint,
  children,
}: {
  id: string;
  label: string;
  error?: string;
  hint?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div>
      <label htmlFor={id} className="block font-semibold">
        {label}
      </label>
      {children}
      <Messages id={id} error={error} hint={hint} />
    </div>
  );
}

/** A labelled input whose message is tied to it (aria-describedby), so a screen reader reads both. */
export function TextField({
  label,
  name,
  error,
  hint,
  id = `field-${name}`,
  ...input
}: FieldShell & Omit<InputHTMLAttributes<HTMLInputElement>, "name" | "id">) {
  return (
    <Labelled id={id} label={label} error={error} hint={hint}>
      <input {...controlProps(id, name, error, hint)} {...input} />
    </Labelled>
  );
}

export function TextAreaField({
  label,
  name,
  error,
  hint,
  id = `field-${name}`,
  ...area
}: FieldShell & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, "name" | "id">) {
  return (
    <Labelled id={id} label={label} error={error} hint={hint}>
      <textarea {...controlProps(id, name, error, hint)} rows={area.rows ?? 5} {...area} />
    </Labelled>
  );
}

export function SelectField({
  label,
  name,
  error,
  hint,
  options,
  id = `field-${name}`,
  ...select
}: FieldShell & { options: readonly { value: string; label: string }[] } & Omit<
    SelectHTMLAttributes<HTMLSelectElement>,
    "name" | "id"
  >) {
  return (
    <Labelled id={id} label={label} error={error} hint={hint}>
      <select {...controlProps(id, name, error, hint)} {...select}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </Labelled>
  );
}

export function CheckboxField({
  label,
  name,
  error,
  hint,
  id = `field-${name}`,
  ...input
}: FieldShell & Omit<InputHTMLAttributes<HTMLInputElement>, "name" | "id" | "type">) {
  return (
    <div>
      <div className="flex min-h-11 items-center gap-3">
        <input
          id={id}
          name={name}
          type="checkbox"
          value="on"
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(id, error, hint)}
          className="h-5 w-5 accent-ink"
          {...input}
        />
        <label htmlFor={id} className="font-semibold">
          {label}
        </label>
      </div>
      <Messages id={id} error={error} hint={hint} />
    </div>
  );
}

/**
 * How many fields the owner must correct: a top-level message counts once, unless it stands for
 * messages on its parts (`photos` for `photos.0.alt` and `photos.1.alt`), which then count each.
 */
export function fieldsWithErrors(errors: Record<string, string>): number {
  const keys = Object.keys(errors);
  return keys
    .filter((key) => !key.includes("."))
    .reduce(
      (count, top) =>
        count +
        Math.max(1, new Set(keys.filter((k) => k.startsWith(`${top}.`)).map((k) => k.split(".", 2).join("."))).size),
      0,
    );
}

/** Shown above a refused form: how many fields need attention, focusable so the owner lands on it. */
export function ErrorSummary({ errors }: { errors?: Record<string, string> }) {
  const count = errors ? fieldsWithErrors(errors) : 0;
  if (!count) return null;
  return (
    <div role="alert" className="rounded-xl border-2 border-red-800 bg-white p-4 text-red-800">
      <p className="font-semibold">
        {count === 1 ? "One field needs your attention." : `${count} fields need your attention.`}
      </p>
      {errors?.form ? <p className="mt-1">{errors.form}</p> : null}
    </div>
  );
}
