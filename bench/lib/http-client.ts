import http from "node:http";

/**
 * The benches' HTTP client: node:http on keep-alive sockets, one per request in flight, as a
 * browser keeps its connections. It replaces fetch in the soak because the load generator shares
 * the server's two cores: fetch spent about 1 ms of CPU per request (WHATWG streams, Headers and
 * Response objects, decompressing every body), a third of the machine at the soak's rate, taken
 * from the server it measures (decision 099). The server sees the same requests: fetch's default
 * headers are sent, and bodies are read to the end, left compressed as they arrived.
 */
export interface BenchResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The address of the last response (after a followed redirect). */
  url: string;
  redirected: boolean;
  bytes: number;
}

export interface BenchRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** Follow one redirect with a GET, as a browser does after a form's 303 (fetch's redirect: "follow"). */
  follow?: boolean;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity, maxFreeSockets: 1024 });

/** What fetch sends when the caller does not say otherwise. */
const FETCH_DEFAULTS = {
  accept: "*/*",
  "accept-language": "*",
  "sec-fetch-mode": "cors",
  "accept-encoding": "gzip, deflate",
};

function once(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: string | undefined,
): Promise<BenchResponse> {
  return new Promise((resolve, reject) => {
    const outgoing: Record<string, string | number> = { ...FETCH_DEFAULTS };
    for (const [name, value] of Object.entries(headers)) outgoing[name.toLowerCase()] = value;
    if (body !== undefined) outgoing["content-length"] = Buffer.byteLength(body);
    const req = http.request(
      { agent, host: url.hostname, port: url.port, path: url.pathname + url.search, method, headers: outgoing },
      (res) => {
        let bytes = 0;
        res.on("data", (chunk: Buffer) => (bytes += chunk.length));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, url: url.toString(), redirected: false, bytes }),
        );
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

export async function benchRequest(address: string, init: BenchRequest = {}): Promise<BenchResponse> {
  const url = new URL(address);
  const headers = init.headers ?? {};
  const first = await once(url, init.method ?? "GET", headers, init.body);
  const location = first.headers.location;
  if (!init.follow || first.status < 300 || first.status >= 400 || !location) return first;
  // The GET carries no body, so none of the headers that describe one (in any spelling).
  const withoutBody = Object.fromEntries(
    Object.entries(headers).filter(([name]) => name.toLowerCase() !== "content-type"),
  );
  const next = await once(new URL(location, url), "GET", withoutBody, undefined);
  return { ...next, redirected: true };
}
