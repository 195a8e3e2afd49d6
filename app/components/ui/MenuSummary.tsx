/** The "Menu" button of a phone-width menu (a <details>'s summary), shared by the site's header and the admin's. */
export function MenuSummary() {
  return (
    <summary
      className={
        "flex min-h-11 cursor-pointer list-none items-center gap-2 rounded-full border-2 " +
        "border-ink px-4 font-semibold [&::-webkit-details-marker]:hidden"
      }
    >
      <span>Menu</span>
      <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4 transition-transform group-open:rotate-180">
        <path d="M5 7l5 6 5-6" fill="none" stroke="currentColor" strokeWidth="2" />
      </svg>
    </summary>
  );
}
