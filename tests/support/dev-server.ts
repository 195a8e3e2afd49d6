import type http from "node:http";
import type { AddressInfo } from "node:net";
import { createServer, type ViteDevServer } from "vite";

/** The app's pages through Vite, as the integration tests serve them: no hot reload, no websocket, errors only. */
export function testViteServer(): Promise<ViteDevServer> {
  return createServer({
    server: { middlewareMode: true, hmr: false, ws: false },
    appType: "custom",
    logLevel: "error",
  });
}

/** Starts `server` on a free loopback port; its base URL, e.g. http://127.0.0.1:41234. */
export async function listenOnLoopback(server: http.Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
