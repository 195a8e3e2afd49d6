ALTER TABLE "email_outbox" ADD COLUMN "body_expires_on_send" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Hand-written backfill (decision 108): the sign-in and renew-link emails already queued are marked,
-- and those already sent or given up on lose the link they held.
UPDATE "email_outbox" SET "body_expires_on_send" = true
  WHERE "dedupe_key" LIKE 'member-sign-in:%' OR "dedupe_key" LIKE 'member-reminder-%' OR "dedupe_key" LIKE 'member-lapsed:%' OR "dedupe_key" LIKE 'member-renewal-link:%';--> statement-breakpoint
UPDATE "email_outbox" SET "text_body" = 'This message held a personal link. Its text was removed from the outbox once it was sent.', "html_body" = NULL
  WHERE "body_expires_on_send" AND "status" IN ('sent', 'failed');
