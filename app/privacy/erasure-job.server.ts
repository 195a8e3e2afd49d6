import type { AppConfig } from "~/config.server";
import type { Database } from "~/db/client.server";
import type { Clock } from "~/lib/clock";
import { stopCardCharges } from "~/memberships/card-subscriptions.server";
import { runDueErasures } from "./erasure.server";

/**
 * Erasures whose day has come, every 15 minutes and soon after start, like the membership job beside
 * it. Safe on several instances: each request is carried out under its row's lock, once.
 */
export function startErasureJob(
  runtime: { config: AppConfig; database: { db: Database }; clock: Clock },
  everyMs = 15 * 60_000,
) {
  const { database, clock } = runtime;
  let running = false;
  const pass = () => {
    if (running) return;
    running = true;
    runDueErasures(database.db, clock.now(), (memberId) =>
      stopCardCharges({ db: database.db, config: runtime.config, clock }, memberId),
    )
      .then((r) => {
        if (r.done || r.waiting)
          console.log(`[privacy] erasures: ${r.done} carried out, ${r.waiting} waiting for open orders`);
      })
      .catch((error) => console.error(`[privacy] erasure pass failed: ${(error as Error).message}`))
      .finally(() => (running = false));
  };
  const first = setTimeout(pass, 3_000);
  const timer = setInterval(pass, everyMs);
  first.unref();
  timer.unref();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
  };
}
