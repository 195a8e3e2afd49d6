import type { DatabaseHandle } from "~/db/client.server";
import { action, loader } from "~/routes/bag";
import { submitBagCheckout } from "~/bag/bag-checkout.server";
import type { PaymentProvider } from "~/payments/provider";
import { createSimulatorProvider } from "~/payments/simulator.server";
import { buyer } from "./checkout";
import { routeAnswer, type RouteAnswer } from "./route-answer";
import { testContext } from "./test-db";
import type { Clock } from "~/lib/clock";

/**
 * A browser with a cookie jar that uses /bag: each post sends the cookies the earlier answers set,
 * as a browser would, and keeps those the answer sets.
 */
export function bagBrowser(handle: DatabaseHandle, options: { clock?: Clock; clientIp?: string } = {}) {
  const jar = new Map<string, string>();
  const cookieHeader = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  const keep = (answer: RouteAnswer) => {
    for (const cookie of answer.headers.getSetCookie()) {
      const [pair] = cookie.split(";");
      const [name, value] = pair!.split("=");
      jar.set(name!, value ?? "");
    }
    return answer;
  };
  const context = () => testContext(handle, options);
  const headers = () => ({ cookie: cookieHeader(), origin: "http://localhost" });
  return {
    jar,
    cookieHeader,
    async post(fields: Record<string, string>): Promise<RouteAnswer> {
      const request = new Request("http://localhost/bag", {
        method: "POST",
        headers: headers(),
        body: new URLSearchParams(fields),
      });
      const args = { request, context: context(), params: {} } as unknown as Parameters<typeof action>[0];
      return keep(await routeAnswer(() => action(args)));
    },
    /** Posts the bag checkout's customer form (/checkout?bag=1) with this browser's cookies. */
    checkout(
      provider: PaymentProvider = createSimulatorProvider(),
      fields: Record<string, string> | [string, string][] = buyer,
    ) {
      const request = new Request("http://localhost/checkout?bag=1", {
        method: "POST",
        headers: headers(),
        body: new URLSearchParams(fields),
      });
      return submitBagCheckout(request, context(), provider);
    },
    async view(): Promise<RouteAnswer> {
      const request = new Request("http://localhost/bag", { headers: headers() });
      const args = { request, context: context(), params: {} } as unknown as Parameters<typeof loader>[0];
      return keep(await routeAnswer(() => loader(args)));
    },
  };
}
