// negotiator 0.6.4 ships no types; this is the one method used (server/precompressed-assets.ts, app/lib/document-encoding.server.ts).
declare module "negotiator" {
  export default class Negotiator {
    /** A request, or anything with its headers. */
    constructor(request: { headers: Record<string, string | string[] | undefined> });
    /** The client's most preferred of `available`; among equal q-values, the first of `preferred`. */
    encoding(available: readonly string[], preferred?: readonly string[]): string | undefined;
  }
}
