// proxy-addr 2 (Express's own, used through `trust proxy`) ships no types; these are the calls used
// by server/app.ts, with Express's compiled trust function.
declare module "proxy-addr" {
  import type { IncomingMessage } from "node:http";
  type Trust = (address: string, hop: number) => boolean;
  function proxyaddr(request: IncomingMessage, trust: Trust): string;
  export default proxyaddr;
}
