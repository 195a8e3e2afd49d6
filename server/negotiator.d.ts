// negotiator 0.6.4 ships no types; this is the one method used (server/precompressed-assets.ts).
declare module "negotiator" {
  import type { IncomingMessage } from "node:http";
  export default class Negotiator {
    constructor(request: IncomingMessage);
    /** The client's most preferred of `available`; among equal q-values, the first of `preferred`. */
    encoding(available: readonly string[], preferred?: readonly string[]): string | undefined;
  }
}
