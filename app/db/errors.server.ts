// Errors that mean "the database cannot be reached right now" rather than "this query is wrong".
const UNAVAILABLE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EAI_AGAIN",
  "57P01", // admin_shutdown
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now
  "53300", // too_many_connections
  "08000", // connection_exception
  "08001",
  "08003",
  "08006",
]);

const UNAVAILABLE_MESSAGES = [
  /connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /not currently accepting connections/i,
  /connection refused/i,
  /pglite is closed/i,
  /database is closed/i,
  /Cannot use a pool after calling end/i,
  /Client has encountered a connection error/i,
];

/** True when the error (or anything in its cause chain) says the database is unreachable. */
export function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 6; depth++) {
    const candidate = current as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof candidate.code === "string" && UNAVAILABLE_CODES.has(candidate.code)) return true;
    if (
      typeof candidate.message === "string" &&
      UNAVAILABLE_MESSAGES.some((re) => re.test(candidate.message as string))
    ) {
      return true;
    }
    current = candidate.cause;
  }
  return false;
}
