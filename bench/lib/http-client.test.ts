import http from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { benchRequest } from "./http-client";

/** What the server saw of each request, in order. */
const seen: { method: string; url: string; headers: http.IncomingHttpHeaders; body: string }[] = [];
const compressed = gzipSync("a page ".repeat(500));
let server: http.Server;
let base: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      if (req.url === "/form") return res.writeHead(303, { Location: "/contact?sent=1" }).end();
      if (req.url === "/gzip") return res.writeHead(200, { "Content-Encoding": "gzip" }).end(compressed);
      if (req.url === "/cut") {
        res.writeHead(200, { "Content-Length": "1000" }).write("only part of it");
        return setTimeout(() => res.destroy(), 20);
      }
      res.writeHead(200, { "X-Answer": "yes" }).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const last = () => seen[seen.length - 1]!;
/** The headers that say what a request is (not which connection or client library carried it). */
const meaningful = (headers: http.IncomingHttpHeaders) => {
  const { host: _host, connection: _connection, ...rest } = headers;
  return rest;
};

describe("the benches' HTTP client", () => {
  it("sends what fetch sends for the same request, so the server sees no difference", async () => {
    const init = {
      method: "POST",
      headers: {
        "User-Agent": "bench",
        "Content-Type": "application/x-www-form-urlencoded",
        "X-Forwarded-For": "10.0.0.1",
      },
      body: "firstName=Soak&message=Hello",
    };
    await fetch(`${base}/echo?a=1`, init).then((r) => r.arrayBuffer());
    const byFetch = last();
    const response = await benchRequest(`${base}/echo?a=1`, init);
    const byClient = last();

    expect(response).toMatchObject({ status: 200, redirected: false, bytes: 2, url: `${base}/echo?a=1` });
    expect(response.headers["x-answer"]).toBe("yes");
    expect({ ...byClient, headers: meaningful(byClient.headers) }).toEqual({
      ...byFetch,
      headers: meaningful(byFetch.headers),
    });
  });

  it("reads a compressed body to its end and counts the bytes that arrived, without inflating them", async () => {
    const response = await benchRequest(`${base}/gzip`);
    expect(response.status).toBe(200);
    expect(response.bytes).toBe(compressed.length);
    expect(last().headers["accept-encoding"]).toBe("gzip, deflate");
  });

  it("follows a form's 303 with a GET that carries no body, as a browser does", async () => {
    const before = seen.length;
    const response = await benchRequest(`${base}/form`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "text/html" },
      body: "a=1",
      follow: true,
    });
    expect(response).toMatchObject({ status: 200, redirected: true, url: `${base}/contact?sent=1` });
    const [post, get] = seen.slice(before);
    expect(post).toMatchObject({ method: "POST", url: "/form", body: "a=1" });
    expect(get).toMatchObject({ method: "GET", url: "/contact?sent=1", body: "" });
    expect(get!.headers.accept).toBe("text/html");
    expect(get!.headers["content-type"]).toBeUndefined();
    expect(get!.headers["content-length"]).toBeUndefined();
  });

  it("leaves a redirect unfollowed unless asked, with its Location to read", async () => {
    const response = await benchRequest(`${base}/form`, { method: "POST", body: "" });
    expect(response).toMatchObject({ status: 303, redirected: false });
    expect(response.headers.location).toBe("/contact?sent=1");
  });

  it("rejects a response cut off before its end, as fetch does", async () => {
    await expect(benchRequest(`${base}/cut`)).rejects.toThrow();
  });

  it("rejects when nothing listens, as fetch does, so the soak counts a network error", async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await expect(benchRequest(`http://127.0.0.1:${port}/`)).rejects.toThrow(/ECONNREFUSED/);
  });
});
