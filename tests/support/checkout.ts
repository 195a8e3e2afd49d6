import type { AppConfig } from "~/config.server";
import type { DatabaseHandle } from "~/db/client.server";
import { submitCheckout } from "~/orders/checkout-action.server";
import type { CheckoutActionResult } from "~/orders/checkout-schema";
import type { PaymentProvider } from "~/payments/provider";
import { createSimulatorProvider } from "~/payments/simulator.server";
import { testContext } from "./test-db";
import type { Clock } from "~/lib/clock";

export const buyer = {
  firstName: "Thandi",
  lastName: "Mokoena",
  email: "thandi@example.com",
  phone: "+27 82 555 0101",
  address: "12 Jacaranda Street\nMelville\nJohannesburg 2092",
};

/** Posts the checkout form the way the browser does (type and item in the query and hidden fields). */
export function checkoutRequest(type: string, item: string, fields: Record<string, string> = buyer, price = "R1") {
  const url = `http://localhost/checkout?${new URLSearchParams({ type, item, price })}`;
  return new Request(url, { method: "POST", body: new URLSearchParams({ ...fields, type, item }) });
}

let buyers = 0;

export async function checkout(
  handle: DatabaseHandle,
  type: string,
  item: string,
  options: {
    fields?: Record<string, string>;
    provider?: PaymentProvider;
    config?: Partial<AppConfig>;
    clock?: Clock;
    clientIp?: string;
  } = {},
): Promise<Response | CheckoutActionResult> {
  // Each call is a buyer of its own unless a test names the address: one address may hold only a few units.
  const clientIp = options.clientIp ?? `10.1.${(buyers >> 8) & 255}.${buyers++ & 255}`;
  const context = testContext(handle, { config: options.config, clock: options.clock, clientIp });
  return submitCheckout(
    checkoutRequest(type, item, options.fields),
    context,
    options.provider ?? createSimulatorProvider(),
  );
}

/** The order id in a redirect to the simulator page. */
export function orderIdFrom(result: Response | CheckoutActionResult): string {
  if (!(result instanceof Response)) throw new Error(`expected a redirect, got ${JSON.stringify(result.toast)}`);
  const location = result.headers.get("Location") ?? "";
  const match = /\/payments\/simulator\/([0-9a-f-]{36})/.exec(location);
  if (!match) throw new Error(`unexpected redirect ${location}`);
  return match[1]!;
}
