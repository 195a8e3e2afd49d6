/**
 * What a route module's loader or action answered, as the router would send it: a returned value, a
 * `data()` with its status and headers, or a Response, whether returned or thrown.
 */
export interface RouteAnswer {
  status: number;
  headers: Headers;
  /** Where a redirect goes; null when the answer is not a redirect. */
  location: string | null;
  /** The value returned, the payload of `data()`, or a Response's text. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each test reads the fields its route returns
  body: any;
}

/** React Router's `data()` result; the router reads its `type` tag the same way. */
interface DataWithResponseInit {
  type: "DataWithResponseInit";
  data: unknown;
  init: ResponseInit | null;
}

const isDataWithInit = (value: unknown): value is DataWithResponseInit =>
  (value as { type?: unknown } | null)?.type === "DataWithResponseInit";

/** A loader's or action's value (returned or thrown) as the answer the router would send. */
export async function answerOf(value: unknown): Promise<RouteAnswer> {
  if (value instanceof Response) {
    return {
      status: value.status,
      headers: value.headers,
      location: value.headers.get("location"),
      body: await value.text(),
    };
  }
  if (isDataWithInit(value)) {
    const headers = new Headers(value.init?.headers);
    return { status: value.init?.status ?? 200, headers, location: headers.get("location"), body: value.data };
  }
  return { status: 200, headers: new Headers(), location: null, body: value };
}

/**
 * Runs a loader or action and returns its answer. A thrown Response or `data()` is an answer; anything
 * else thrown is a server error and is rethrown, so a test looking for one sees it fail.
 */
export async function routeAnswer(run: () => unknown): Promise<RouteAnswer> {
  let value: unknown;
  try {
    value = await run();
  } catch (thrown) {
    if (!(thrown instanceof Response) && !isDataWithInit(thrown)) throw thrown;
    value = thrown;
  }
  return answerOf(value);
}
