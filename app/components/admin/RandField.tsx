import { useEffect, useState } from "react";
import { checkRand, formatRand, type RandRules } from "~/lib/money";
import { CheckboxField, TextField } from "./fields";

/** Long enough that a word typed at phone speed is announced once, at its end, not per key. */
const SETTLE_MS = 400;

interface RandFieldProps {
  label: string;
  name: string;
  defaultValue: string;
  error?: string;
  hint?: string;
  id?: string;
  /** The schema's rules for this field (its label starts each message), so the preview says what the server will. */
  rules: RandRules & { optional?: boolean };
  /** The form field that carries a confirmed tenfold change, and the cents the server asked about. */
  confirmName?: string;
  confirmCents?: number;
  /** What the amount does, before it in the preview: "Saves as R 650.00", "Refunds R 100.50". */
  verb?: string;
}

/** What the amount will be saved as, or why it won't be: empty when there is nothing to say. */
function previewOf(typed: string, rules: RandFieldProps["rules"], verb: string, typedSinceRender: boolean) {
  if (typed.trim() === "" && rules.optional) return "";
  const checked = checkRand(typed, rules);
  if (checked.ok) return `${verb} ${formatRand(checked.cents)}`;
  // Before any typing the server's message already stands under the field; saying it twice is noise.
  return typedSinceRender ? checked.message : "";
}

/**
 * A price field that shows, as the owner types, the amount it will save ("Saves as R 650.00") in a
 * polite live region, read by the same rules as the server (decision 103). Without JavaScript the
 * server's answer renders the same line. After the server asks about a tenfold change it offers
 * the confirmation, ticked, for exactly the amount it asked about.
 */
export function RandField({
  label,
  name,
  defaultValue,
  error,
  hint,
  id = `field-${name}`,
  rules,
  confirmName,
  confirmCents,
  verb = "Saves as",
}: RandFieldProps) {
  const [typed, setTyped] = useState(defaultValue);
  const [touched, setTouched] = useState(false);
  const [preview, setPreview] = useState(() => previewOf(defaultValue, rules, verb, false));
  useEffect(() => {
    if (!touched) return;
    const timer = setTimeout(() => setPreview(previewOf(typed, rules, verb, true)), SETTLE_MS);
    return () => clearTimeout(timer);
  }, [typed, touched, rules, verb]);

  const current = checkRand(typed, rules);
  const stillAsked =
    confirmName !== undefined && confirmCents !== undefined && current.ok && current.cents === confirmCents;
  const describedBy = [hint ? `${id}-hint` : null, error ? `${id}-error` : null, `${id}-preview`]
    .filter(Boolean)
    .join(" ");
  return (
    <div>
      <TextField
        label={label}
        name={name}
        id={id}
        defaultValue={defaultValue}
        error={error}
        hint={hint}
        inputMode="decimal"
        autoComplete="off"
        aria-describedby={describedBy}
        onInput={(e) => {
          setTyped(e.currentTarget.value);
          setTouched(true);
        }}
      />
      <output
        id={`${id}-preview`}
        htmlFor={id}
        aria-live="polite"
        className="mt-1 block min-h-6 text-sm font-semibold break-words text-ink"
      >
        {preview === error ? "" : preview}
      </output>
      {stillAsked && confirmCents !== undefined ? (
        <CheckboxField
          label={`Yes, the new price is ${formatRand(confirmCents)}`}
          name={confirmName}
          id={`${id}-confirm`}
          value={String(confirmCents)}
          defaultChecked
        />
      ) : null}
    </div>
  );
}
