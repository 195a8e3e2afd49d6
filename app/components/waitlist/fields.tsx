/** The public forms' field look (the checkout's), with the error tied to its field for screen readers. */
export const fieldClass =
  "mt-1 block w-full min-h-11 rounded-md border border-ink/30 bg-white px-3 py-2 text-ink focus:border-ink " +
  "focus:outline-2 focus:outline-offset-2 focus:outline-honey";

export function FieldError({ id, message }: { id: string; message?: string }) {
  if (!message) return null;
  return (
    <p id={id} className="mt-1 text-sm font-semibold text-red-800">
      {message}
    </p>
  );
}
