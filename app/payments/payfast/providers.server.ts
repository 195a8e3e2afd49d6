import type { AppConfig } from "~/config.server";
import type { Database } from "~/db/client.server";
import { createPayfastSubscriptionsApi } from "./api.server";
import { simulatedSubscriptionsApi } from "./simulator.server";
import type { SubscriptionsApi } from "./subscriptions";

export type SubscriptionProvider = "payfast" | "simulator";

/** Whether a membership bought now is a card subscription at PayFast (keys set) or, without keys, a one-month payment. */
export const payfastEnabled = (config: Pick<AppConfig, "payfast">) => config.payfast !== undefined;

/** The API a subscription is managed through: PayFast's for PayFast's, the simulator's records for the simulator's. */
export function subscriptionsApi(
  provider: SubscriptionProvider,
  context: { config: Pick<AppConfig, "payfast">; db: Database },
): SubscriptionsApi {
  if (provider === "payfast") {
    if (!context.config.payfast) throw new Error("a PayFast subscription needs the PayFast keys to be managed");
    return createPayfastSubscriptionsApi(context.config.payfast);
  }
  return simulatedSubscriptionsApi(context.db);
}
