import * as z from "zod/mini";

/** The unticked "Send me news of new pieces and workshops" box at checkout and on /account: ticked posts "on". */
export const newsBoxSchema = z.optional(z.literal("on", "Please tick the box, or leave it empty."));
export const NEWS_BOX_FIELD = "news";
