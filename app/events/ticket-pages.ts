/** Events with a page of their own at /tickets/{id} (the spec's known ids); the tablecloth workshop has /workshop/tablecloth-skirt (decision 030). */
export const TICKET_PAGE_EVENT_IDS: ReadonlySet<string> = new Set(["radiance-reset", "sip-style", "heritage-radiance"]);

/** Ticket pages that show a "View Events Gallery" button. */
export const GALLERY_EVENT_IDS: ReadonlySet<string> = new Set(["radiance-reset", "sip-style"]);
