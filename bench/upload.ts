// npm run bench:upload: does the owner uploading ten 12-megapixel phone photos slow the visitors?
// Against the production build on 127.0.0.1 with a fresh PGlite data folder: `/` under a steady load
// for BENCH_SECONDS without uploads, then the same load while a signed-in client uploads ten photos
// through POST /admin/photos one after another (as the photo picker does) and until every rendition
// is made. Reports `/` p99 both ways, each upload's time and the time until all renditions are ready.
//   BENCH_SECONDS=10   BENCH_RATE=200 (requests/s on /)   BENCH_CONNECTIONS=20   BENCH_PHOTOS=10
import autocannon from "autocannon";
import os from "node:os";
import sharp from "sharp";
import { markdownTable, startBuiltServer, writeResults } from "./lib/server";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const RATE = Number(process.env.BENCH_RATE ?? 200);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const PHOTOS = Number(process.env.BENCH_PHOTOS ?? 10);
const PASSWORD = "bench-admin-password";
/** Renditions of ten photos must be done by then, or the bench says so. */
const READY_TIMEOUT_MS = 600_000;
const BROWSER_UA =
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36";

interface LoadResult {
  seconds: number;
  requests: number;
  p50: number;
  p99: number;
  max: number;
  errors: number;
  non2xx: number;
}

/** Steady load on `/` until `until` resolves (or for SECONDS when it is not given). */
async function loadHome(base: string, until?: Promise<unknown>): Promise<LoadResult> {
  const started = performance.now();
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: `${base}/`,
        connections: CONNECTIONS,
        overallRate: RATE,
        duration: until ? READY_TIMEOUT_MS / 1000 : SECONDS,
        headers: { "user-agent": BROWSER_UA, "accept-encoding": "gzip" },
      },
      (error, done) => (error ? reject(error) : resolve(done)),
    );
    until?.finally(() => instance.stop());
  });
  return {
    seconds: Math.round((performance.now() - started) / 100) / 10,
    requests: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

/** A 4000 x 3000 JPEG of blurred noise: a phone photo's size (2-3 MB) and its encoding cost. */
function phonePhoto(): Promise<Buffer> {
  return sharp({
    create: {
      width: 4000,
      height: 3000,
      channels: 3,
      background: "#000000",
      noise: { type: "gaussian", mean: 128, sigma: 30 },
    },
  })
    .blur(0.8)
    .jpeg({ quality: 88 })
    .toBuffer();
}

async function signIn(base: string): Promise<string> {
  const response = await fetch(`${base}/admin/login`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: base },
    body: new URLSearchParams({ password: PASSWORD }),
    redirect: "manual",
  });
  const cookie = /(__Host-)?admin_session=[^;]+/.exec(response.headers.get("set-cookie") ?? "")?.[0];
  if (!cookie) throw new Error(`sign-in failed (${response.status})`);
  return cookie;
}

console.log(`generating ${PHOTOS} 12-megapixel photos…`);
const photos: Buffer[] = [];
for (let i = 0; i < PHOTOS; i++) photos.push(await phonePhoto());
const photoMb = photos.reduce((sum, p) => sum + p.length, 0) / PHOTOS / 1024 / 1024;

const app = await startBuiltServer({ ADMIN_PASSWORD: PASSWORD });
let quiet!: LoadResult;
let busy!: LoadResult;
let after!: LoadResult;
const uploads: { ms: number; status: number; width?: number; height?: number }[] = [];
let readyMs = Number.NaN;
let allReady = false;
try {
  const cookie = await signIn(app.base);
  // Warm up the page cache and the connection pool.
  await loadHome(app.base, new Promise((resolve) => setTimeout(resolve, 2000)));

  console.log(`/ at ${RATE} req/s for ${SECONDS} s, no uploads…`);
  quiet = await loadHome(app.base);

  console.log(`/ at ${RATE} req/s while ${PHOTOS} photos are uploaded and their renditions made…`);
  const started = performance.now();
  const work = (async () => {
    const srcs: string[] = [];
    for (const [i, bytes] of photos.entries()) {
      const form = new FormData();
      form.set("file", new File([new Uint8Array(bytes)], `IMG_${1000 + i}.jpg`, { type: "image/jpeg" }));
      const t = performance.now();
      const response = await fetch(`${app.base}/admin/photos`, {
        method: "POST",
        body: form,
        headers: { Cookie: cookie, Origin: app.base },
      });
      const body = (await response.json()) as {
        photo?: { src: string; width: number; height: number };
        error?: string;
      };
      uploads.push({
        ms: Math.round(performance.now() - t),
        status: response.status,
        width: body.photo?.width,
        height: body.photo?.height,
      });
      if (body.photo) srcs.push(body.photo.src);
      else console.error(`upload ${i + 1}: ${response.status} ${body.error}`);
    }
    // Ready when the smallest AVIF is served as an immutable rendition rather than the master. Photos
    // are encoded in upload order, so only the oldest still pending is asked for, twice a second: each
    // answer before it is ready is a whole master, which the bench should not add much of.
    const deadline = Date.now() + READY_TIMEOUT_MS;
    const pending = [...srcs];
    while (pending.length && Date.now() < deadline) {
      const response = await fetch(`${app.base}${pending[0]!.replace(".webp", ".400w.avif")}`);
      await response.arrayBuffer();
      if (/immutable/.test(response.headers.get("cache-control") ?? "")) pending.shift();
      else await new Promise((resolve) => setTimeout(resolve, 500));
    }
    allReady = pending.length === 0 && srcs.length === PHOTOS;
    readyMs = Math.round(performance.now() - started);
  })();
  // At least as long as the quiet run, and for as long as the photos are being made.
  busy = await loadHome(app.base, Promise.all([work, new Promise((resolve) => setTimeout(resolve, SECONDS * 1000))]));

  // Once more without uploads: on a machine shared with other work, this shows how much the
  // background moved while the bench ran.
  console.log(`/ at ${RATE} req/s for ${SECONDS} s, no uploads, again…`);
  after = await loadHome(app.base);
} finally {
  await app.stop();
}

const uploadTimes = uploads.map((u) => u.ms).sort((a, b) => a - b);
const median = uploadTimes[Math.floor(uploadTimes.length / 2)] ?? Number.NaN;
// The stricter reference: the better of the runs without uploads, since the machine's other work
// can only have made one of them slower.
const reference = Math.min(quiet.p99, after.p99);
const checks = [
  {
    name: "/ p99 with uploads <= 2x without (the better run without)",
    ok: busy.p99 <= reference * 2,
    value: `${busy.p99} ms vs ${reference} ms (${(busy.p99 / reference).toFixed(1)}x)`,
  },
  { name: "/ p99 with uploads < 200 ms", ok: busy.p99 < 200, value: `${busy.p99} ms` },
  {
    name: "no errors on / either way",
    ok: quiet.errors + quiet.non2xx + busy.errors + busy.non2xx + after.errors + after.non2xx === 0,
    value: `${quiet.errors + quiet.non2xx + after.errors + after.non2xx} without, ${busy.errors + busy.non2xx} with uploads`,
  },
  {
    name: `all ${PHOTOS} uploads stored (201) and every rendition made`,
    ok: uploads.length === PHOTOS && uploads.every((u) => u.status === 201) && allReady,
    value:
      `${uploads.filter((u) => u.status === 201).length} stored, ` +
      `renditions ${allReady ? `ready after ${(readyMs / 1000).toFixed(1)} s` : "NOT all ready"}`,
  },
];

const loadTable = markdownTable(
  ["`/` at a steady rate", "seconds", "requests", "p50 ms", "p99 ms", "max ms", "errors"],
  [
    ["without uploads", quiet.seconds, quiet.requests, quiet.p50, quiet.p99, quiet.max, quiet.errors + quiet.non2xx],
    [
      "while uploading and making renditions",
      busy.seconds,
      busy.requests,
      busy.p50,
      busy.p99,
      busy.max,
      busy.errors + busy.non2xx,
    ],
    [
      "without uploads, again afterwards",
      after.seconds,
      after.requests,
      after.p50,
      after.p99,
      after.max,
      after.errors + after.non2xx,
    ],
  ],
);
const uploadTable = markdownTable(
  ["upload", "status", "ms", "master"],
  uploads.map((u, i) => [i + 1, u.status, u.ms, u.width ? `${u.width}x${u.height}` : "-"]),
);
const checkTable = markdownTable(
  ["target", "measured", "result"],
  checks.map((c) => [c.name, c.value, c.ok ? "ok" : "MISSED"]),
);
const extra = [
  `${PHOTOS} photos of 4000x3000 px, ${photoMb.toFixed(1)} MB each on average, uploaded one after another (as the ` +
    `photo picker does); upload median ${median} ms, slowest ${uploadTimes.at(-1)} ms.`,
  `All renditions (AVIF and WebP at 400, 800 and 1200 px) ready ${(readyMs / 1000).toFixed(1)} s after the first upload began.`,
  `The target compares with the better of the two runs without uploads (before and after): the difference between ` +
    `them is how much the machine's other work moved meanwhile. Load average when the bench ended: ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(", ")}.`,
  `Load: autocannon, ${CONNECTIONS} connections at ${RATE} req/s overall on /, ${SECONDS} s without uploads, then for ` +
    `as long as the uploads and renditions took (at least ${SECONDS} s). Node ${process.version}, ${os.cpus().length} ` +
    `cores, shared with the load generator.`,
].join("\n");
const markdown = `# Photo upload benchmark (${new Date().toISOString()})\n\n${loadTable}\n\n${uploadTable}\n\n${checkTable}\n\n${extra}\n`;
const file = writeResults(
  "upload",
  {
    at: new Date().toISOString(),
    seconds: SECONDS,
    rate: RATE,
    connections: CONNECTIONS,
    photos: PHOTOS,
    photoMb,
    quiet,
    busy,
    after,
    loadAverage: os.loadavg(),
    uploads,
    readyMs,
    allReady,
    checks,
  },
  markdown,
);
console.log(`\n${loadTable}\n\n${uploadTable}\n\n${checkTable}\n\n${extra}\nwritten to ${file}`);
const failed = checks.filter((c) => !c.ok).length;
console.log(`bench:upload: ${checks.length - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
