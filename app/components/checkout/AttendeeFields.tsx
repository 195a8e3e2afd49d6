import { ATTENDEE_FIELD, ATTENDEE_NAME_MAX } from "~/tickets/attendees";

const fieldClass =
  "mt-1 block w-full min-h-11 rounded-md border border-ink/30 bg-white px-3 py-2 text-ink focus:border-ink " +
  "focus:outline-2 focus:outline-offset-2 focus:outline-honey";

// Where a browser cannot say whether scripting is on, the fields show until hydration, as before.
const noScriptOnly = "[@media(scripting:enabled)]:hidden";

interface AttendeeFieldsProps {
  /** One label per field, in the order the fields are posted ("Seat 1 of 2: Sip & Style"). */
  labels: string[];
  /** Fields from this one on are not shown (the seats chosen are fewer); all are shown without JavaScript. */
  shown?: number;
  /**
   * Drawn before hydration for a browser without JavaScript: fields from this one on (all of them at 0) are
   * kept out of sight where scripting is on, so the form does not move when hydration hides them.
   */
  scriptedShown?: number;
  /** The names typed before a refusal. */
  kept?: string[];
  /** What is wrong with each field, or null. */
  errors?: (string | null)[];
  /** A field was changed: its message no longer applies. */
  onEdit?: (index: number) => void;
}

/**
 * A name per seat: each seat is its own ticket, and the door lists it under this name. Empty means the
 * buyer's name, so a buyer coming alone types nothing more.
 */
export function AttendeeFields({
  labels,
  shown = labels.length,
  scriptedShown = shown,
  kept,
  errors,
  onEdit,
}: AttendeeFieldsProps) {
  if (!labels.length || shown < 1) return null;
  return (
    <fieldset
      className={`grid min-w-0 gap-3 rounded-md border border-ink/20 p-4 ${scriptedShown < 1 ? noScriptOnly : ""}`}
    >
      <legend className="px-1 font-semibold text-ink">Who is coming?</legend>
      <p id="attendee-hint" className="text-sm text-ink/80">
        Each seat is its own ticket with the name below. Leave a seat empty and it carries your name.
      </p>
      {labels.map((label, i) => {
        const error = errors?.[i] ?? null;
        const id = `attendee-${i + 1}`;
        return (
          <div key={id} hidden={i >= shown} className={i >= scriptedShown ? noScriptOnly : undefined}>
            <label htmlFor={id} className="block text-sm font-medium text-ink [overflow-wrap:anywhere]">
              {label}
            </label>
            <input
              id={id}
              name={ATTENDEE_FIELD}
              autoComplete="off"
              maxLength={ATTENDEE_NAME_MAX}
              defaultValue={kept?.[i] ?? ""}
              disabled={i >= shown}
              onChange={error ? () => onEdit?.(i) : undefined}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${id}-error attendee-hint` : "attendee-hint"}
              className={fieldClass}
            />
            {error ? (
              <p id={`${id}-error`} className="mt-1 text-sm font-semibold text-red-800">
                {error}
              </p>
            ) : null}
          </div>
        );
      })}
    </fieldset>
  );
}
