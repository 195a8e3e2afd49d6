/**
 * A bag user for the soak and the spike (issue 39): adds two or three lines (products, and a workshop
 * seat while seats are left) to a bag through /bag's forms, views /bag, checks the bag out on
 * /checkout?bag=1 and pays on the simulator, with the bag's cookie kept between requests as a browser
 * keeps it. Each bench sends the requests with its own timed client, so the bag's latency is counted
 * in its own rows.
 */

/** One request of a bag visit, as the benches label it. */
export type BagStep = "add" | "view" | "checkout" | "pay";
export const BAG_STEPS: BagStep[] = ["add", "view", "checkout", "pay"];

export interface BagRequest {
  method: "GET" | "POST";
  headers: Record<string, string>;
  body?: string;
}

/** What a visit needs of an answer: its status, where it redirects, and the cookies it sets. */
export interface BagReply {
  status: number;
  location: string | null;
  setCookie: string[];
}

/** Sends one request and times it under `step`; undefined when the request failed on the network. */
export type BagSend = (step: BagStep, url: string, request: BagRequest) => Promise<BagReply | undefined>;

/**
 * Things without a stock count, so a bag can always be bought however long the run (the hidden Test
 * Product cannot go in a bag), and the workshop, whose eight seats per session run out: after that
 * its add is refused (409) and the bag goes on with the rest, as a buyer would.
 */
const PRODUCT_PAGES = ["/product/beaded-jewellery", "/product/crochet-earrings", "/product/capsule-reset"];
const SEAT_PAGE = "/workshop/tablecloth-skirt";

export interface BagItems {
  products: number[];
  seat: number | null;
}

const addFormId = (html: string, kind: "catalog" | "ticket") =>
  new RegExp(`name="kind" value="${kind}"/><input type="hidden" name="id" value="([0-9]+)"`).exec(html)?.[1];

/** The ids the pages' "Add to bag" forms post, read from the pages as a browser gets them. */
export async function findBagItems(base: string): Promise<BagItems> {
  const page = (path: string) => fetch(`${base}${path}`).then((r) => r.text());
  const products: number[] = [];
  for (const path of PRODUCT_PAGES) {
    const id = addFormId(await page(path), "catalog");
    if (!id) throw new Error(`no "Add to bag" form on ${path}`);
    products.push(Number(id));
  }
  const seat = addFormId(await page(SEAT_PAGE), "ticket");
  return { products, seat: seat ? Number(seat) : null };
}

export interface BagLine {
  kind: "catalog" | "ticket";
  id: number;
  quantity: number;
}

/** The lines of visit `n`: two products (the first one or two units), then a seat or a third product. */
export function bagLinesFor(items: BagItems, n: number): BagLine[] {
  const { products } = items;
  const first = products[n % products.length]!;
  const second = products[(n + 1) % products.length]!;
  const third =
    items.seat !== null && n % 2 === 0
      ? { kind: "ticket" as const, id: items.seat, quantity: 1 }
      : { kind: "catalog" as const, id: products[(n + 2) % products.length]!, quantity: 1 };
  const lines: BagLine[] = [
    { kind: "catalog" as const, id: first, quantity: 1 + (n % 2) },
    { kind: "catalog" as const, id: second, quantity: 1 },
  ];
  // Two lines or three, alternating every other pair of visits.
  if (n % 4 < 2) lines.push(third);
  return lines;
}

export type BagOutcome = "paid" | "refused" | "failed";

/**
 * One visit from address `ip`. "refused" is a 4xx the buyer could act on (a seat gone between the page
 * and the bag); "failed" is anything else that stopped it (a 5xx or network error, counted by `send`).
 */
export async function bagVisit(
  send: BagSend,
  base: string,
  items: BagItems,
  n: number,
  ip: string,
): Promise<BagOutcome> {
  const jar = new Map<string, string>();
  const headers = (extra: Record<string, string> = {}) => ({
    "X-Forwarded-For": ip,
    ...(jar.size ? { Cookie: [...jar].map(([k, v]) => `${k}=${v}`).join("; ") } : {}),
    ...extra,
  });
  const form = (fields: Record<string, string>): BagRequest => ({
    method: "POST",
    headers: headers({ "Content-Type": "application/x-www-form-urlencoded", Origin: base }),
    body: new URLSearchParams(fields).toString(),
  });
  const keep = (reply: BagReply | undefined) => {
    for (const cookie of reply?.setCookie ?? []) {
      const pair = cookie.split(";", 1)[0]!;
      const at = pair.indexOf("=");
      jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
    return reply;
  };

  let refused = false;
  for (const line of bagLinesFor(items, n)) {
    const added = keep(
      await send(
        "add",
        `${base}/bag`,
        form({ intent: "add", kind: line.kind, id: String(line.id), quantity: String(line.quantity) }),
      ),
    );
    if (!added || added.status >= 500) return "failed";
    if (added.status >= 400) refused = true;
  }
  const viewed = keep(await send("view", `${base}/bag`, { method: "GET", headers: headers() }));
  if (!viewed || viewed.status >= 500) return "failed";
  const created = keep(
    await send(
      "checkout",
      `${base}/checkout?bag=1`,
      form({
        firstName: "Bag",
        lastName: `Buyer ${n}`,
        email: `bag${n}@example.com`,
        phone: "0821234567",
        address: "1 Long Street\nCape Town",
      }),
    ),
  );
  if (!created || created.status >= 500) return "failed";
  if (created.status !== 302 || !created.location) return created.status >= 400 || refused ? "refused" : "failed";
  // The payment page's address is built from SITE_URL; ask this server for its path.
  const payPath = new URL(created.location, base).pathname;
  const paid = await send("pay", `${base}${payPath}`, form({ intent: "pay" }));
  return paid && paid.status >= 300 && paid.status < 400 && /status=success/.test(paid.location ?? "")
    ? "paid"
    : "failed";
}
