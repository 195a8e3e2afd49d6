import type { RequestHandler } from "express";
import Negotiator from "negotiator";
import fs from "node:fs";
import path from "node:path";

const ENCODINGS = { br: ".br", gzip: ".gz" } as const;
const AVAILABLE = ["br", "gzip", "identity"];
// Browsers list gzip before br at the same q-value; Brotli is the smaller, so it wins ties.
const PREFERRED = ["br", "gzip"];

/**
 * Serves the build's hashed assets from the Brotli (quality 11) and gzip (level 9) copies written at
 * build time (vite.config.ts), when the browser accepts them. They are about 14% smaller than the
 * quality-4 Brotli that compressing on the fly can afford, and a crowd of first visits costs the
 * server no compression work. Anything else falls through to express.static and compression().
 */
export function precompressedAssets(dir: string): RequestHandler {
  const files = new Set(fs.existsSync(dir) ? fs.readdirSync(dir) : []);
  return (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const name = req.path.slice(1);
    if (!name || name.includes("/") || !(files.has(`${name}.br`) || files.has(`${name}.gz`))) return next();
    res.vary("Accept-Encoding");
    const encoding = new Negotiator(req).encoding(AVAILABLE, PREFERRED);
    if (encoding !== "br" && encoding !== "gzip") return next();
    const file = `${name}${ENCODINGS[encoding]}`;
    if (!files.has(file)) return next();
    res.setHeader("Content-Encoding", encoding);
    // The type of the original, not of the .br/.gz file that carries it.
    res.type(path.extname(name));
    res.sendFile(file, { root: dir, immutable: true, maxAge: "1y" }, (error) => {
      if (error && !res.headersSent) next(error);
    });
  };
}
