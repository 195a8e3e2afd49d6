/** Ticket pages that show a "View Events Gallery" button. */
export const GALLERY_EVENT_IDS: ReadonlySet<string> = new Set(["radiance-reset", "sip-style"]);
