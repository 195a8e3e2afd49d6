import type { AppConfig } from "~/config.server";
import type { Database } from "~/db/client.server";
import type { Clock } from "~/lib/clock";
import { paymentProvider } from "~/payments/providers.server";
import { reconcileHeldNotifications } from "./payfast-held.server";
import { mailSettingsForOrders } from "./order-mail-settings.server";
import { sweepPendingOrders } from "./reconcile.server";
import { offerFreedSeats } from "~/waitlist/offers.server";

/**
 * Every minute, and once just after start: pending orders whose hold ran out are reconciled with the
 * provider or expired.
 * Safe on several instances at once: each change is a conditional update of a pending order.
 */
export function startOrderSweeper(
  runtime: { config: AppConfig; database: { db: Database }; clock: Clock },
  everyMs = 60_000,
) {
  const { config, database, clock } = runtime;
  const sweep = () => {
    sweepPendingOrders(
      database.db,
      paymentProvider(config),
      clock.now(),
      config.payment.stockHoldMinutes,
      mailSettingsForOrders(config),
    )
      .catch((error) => console.error(`[payments] order sweep failed: ${(error as Error).message}`))
      // After the sweep, so seats of orders it just expired are offered in the same minute (decision 122).
      .then(() => offerFreedSeats(database.db, clock.now(), config.siteUrl))
      .catch((error) => console.error(`[waitlist] offer pass failed: ${(error as Error).message}`))
      // PayFast notifications held after a validate call that did not answer (decision 131).
      .then(() => reconcileHeldNotifications({ db: database.db, config, clock }))
      .catch((error) => console.error(`[payfast] held notifications pass failed: ${(error as Error).message}`));
  };
  // Once soon after start too: after a crash or a deploy, orders left pending meanwhile are settled
  // (paid at the provider, or expired and their holds released) without waiting a whole interval.
  const first = setTimeout(sweep, 1_000);
  const timer = setInterval(sweep, everyMs);
  first.unref();
  timer.unref();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
  };
}
