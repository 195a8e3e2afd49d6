CREATE TABLE "analytics_daily" (
	"day" date NOT NULL,
	"event_type" text NOT NULL,
	"page_path" text NOT NULL,
	"events" integer NOT NULL,
	CONSTRAINT "analytics_daily_day_event_type_page_path_pk" PRIMARY KEY("day","event_type","page_path")
);
--> statement-breakpoint
CREATE TABLE "analytics_daily_referrers" (
	"day" date NOT NULL,
	"referrer_host" text NOT NULL,
	"sessions" integer NOT NULL,
	CONSTRAINT "analytics_daily_referrers_day_referrer_host_pk" PRIMARY KEY("day","referrer_host")
);
--> statement-breakpoint
CREATE TABLE "analytics_daily_sessions" (
	"day" date NOT NULL,
	"session_id" text NOT NULL,
	CONSTRAINT "analytics_daily_sessions_day_session_id_pk" PRIMARY KEY("day","session_id")
);
--> statement-breakpoint
CREATE TABLE "analytics_rollup_days" (
	"day" date PRIMARY KEY NOT NULL,
	"rolled_at" timestamp with time zone DEFAULT now() NOT NULL
);
