ALTER TABLE "contact_submissions" ADD COLUMN "answered_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "contact_submissions_unanswered_idx" ON "contact_submissions" USING btree ("created_at") WHERE "contact_submissions"."answered_at" is null;--> statement-breakpoint
-- Messages older than a week when this ships were dealt with by email already: only the last week's wait for her.
UPDATE "contact_submissions" SET "answered_at" = now() WHERE "created_at" < now() - interval '7 days';
