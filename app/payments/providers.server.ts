import type { AppConfig } from "~/config.server";
import type { PaymentProvider } from "./provider";
import { createSimulatorProvider } from "./simulator.server";
import { createYocoProvider } from "./yoco.server";

/** The provider the configuration selects: Yoco with a secret key, otherwise the simulator. */
export function paymentProvider(config: AppConfig): PaymentProvider {
  const { payment } = config;
  if (payment.provider === "yoco" && payment.yocoSecretKey) {
    return createYocoProvider({ apiBase: payment.yocoApiBase, secretKey: payment.yocoSecretKey });
  }
  return createSimulatorProvider();
}

/** The secret webhooks are verified with: Yoco's `whsec_…`, or the simulator's generated one. */
export function webhookSecret(config: AppConfig): string {
  const { payment } = config;
  return payment.provider === "yoco" && payment.yocoWebhookSecret
    ? payment.yocoWebhookSecret
    : payment.simulatorWebhookSecret;
}
