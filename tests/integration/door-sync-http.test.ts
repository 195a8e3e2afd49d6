import http from "node:http";
import { eq } from "drizzle-orm";
import type { ViteDevServer } from "vite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/db/client.server";
import { checkIns, orders, tickets } from "~/db/schema";
import { fixedClock } from "~/lib/clock";
import { runSimulatorIntent } from "~/orders/simulator-actions.server";
import { OFFLINE_SCAN_WINDOW_MS } from "~/tickets/check-in.server";
import { createRequestListener } from "../../server/app";
import { listenOnLoopback, testViteServer } from "../support/dev-server";
import { createTestDatabase, testConfig, testContext } from "../support/test-db";
import { checkout, orderIdFrom } from "../support/checkout";
import { signedInOwner } from "../support/owner";

// Issue 37, from the security review: an offline sync took any scannedAt (2020) and any event. Through
// HTTP against the app on 127.0.0.1: a batch is bound to the event whose list the device downloaded,
// and to a window before the server's now once the device's own clock, sent with the batch, is
// corrected for (its skew is recorded, not trusted).

const NOW = new Date("2025-10-04T08:30:00Z");
const clock = fixedClock(NOW);
const config = testConfig();
let handle: DatabaseHandle;
let vite: ViteDevServer;
let server: http.Server;
let base: string;
let cookie: string;

beforeAll(async () => {
  handle = await createTestDatabase();
  vite = await testViteServer();
  server = http.createServer(createRequestListener({ config, database: handle, clock }, { vite }));
  base = await listenOnLoopback(server);
  cookie = await signedInOwner(handle, { config, clock, userAgent: "door-sync" });
}, 120_000);

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await vite?.close();
  await handle?.close();
});

async function seat(firstName: string) {
  const id = orderIdFrom(
    await checkout(handle, "workshop", "Transform Tablecloth into Wrap Around Skirt", {
      clock: fixedClock("2025-09-10T10:00:00+02:00"),
      fields: {
        firstName,
        lastName: "Sync",
        email: `${firstName.toLowerCase()}@example.com`,
        phone: "+27 82 555 0101",
        address: "Melville",
      },
    }),
  );
  const [order] = await handle.db.select().from(orders).where(eq(orders.id, id));
  await runSimulatorIntent(testContext(handle), order!, "pay");
  return (await handle.db.select().from(tickets).where(eq(tickets.orderId, id)))[0]!;
}

async function sync(body: unknown) {
  const response = await fetch(`${base}/admin/check-in/data`, {
    method: "POST",
    headers: { Cookie: cookie, Origin: base, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ payload: JSON.stringify(body) }),
  });
  return {
    status: response.status,
    body: (await response.json()) as { synced?: { clientScanId: string; outcome: string }[]; error?: string },
  };
}

const ticketNow = async (id: number) => (await handle.db.select().from(tickets).where(eq(tickets.id, id)))[0]!;

describe("offline check-in sync, through HTTP", () => {
  it("a scan dated 2020 by a device whose clock is right admits nobody", async () => {
    const ticket = await seat("Old");
    const { status, body } = await sync({
      intent: "sync",
      deviceId: "door-2020",
      eventId: "tablecloth-workshop",
      deviceNow: NOW.toISOString(),
      scans: [{ clientScanId: "s1", code: ticket.code, scannedAt: "2020-01-01T10:00:00.000Z" }],
    });
    expect(status).toBe(200);
    expect(body.synced).toEqual([expect.objectContaining({ clientScanId: "s1", outcome: "stale" })]);
    expect((await ticketNow(ticket.id)).checkedInAt).toBeNull();
    // Just inside the window it counts.
    const inside = new Date(NOW.getTime() - OFFLINE_SCAN_WINDOW_MS + 60_000).toISOString();
    const ok = await sync({
      intent: "sync",
      deviceId: "door-2020",
      eventId: "tablecloth-workshop",
      deviceNow: NOW.toISOString(),
      scans: [{ clientScanId: "s2", code: ticket.code, scannedAt: inside }],
    });
    expect(ok.body.synced?.[0]?.outcome).toBe("admitted");
    expect((await ticketNow(ticket.id)).checkedInAt?.toISOString()).toBe(inside);
  });

  it(
    "a device whose clock says 2020 is corrected by its skew, which is recorded; a time after the server's now is " +
      "brought back to now",
    async () => {
      const ticket = await seat("Skewed");
      const skew = new Date("2020-03-01T00:00:00Z").getTime() - NOW.getTime();
      const deviceNow = new Date(NOW.getTime() + skew);
      const scannedAt = new Date(deviceNow.getTime() - 10 * 60_000);
      const { body } = await sync({
        intent: "sync",
        deviceId: "door-skewed",
        eventId: "tablecloth-workshop",
        deviceNow: deviceNow.toISOString(),
        scans: [{ clientScanId: "k1", code: ticket.code, scannedAt: scannedAt.toISOString() }],
      });
      expect(body.synced?.[0]?.outcome).toBe("admitted");
      expect((await ticketNow(ticket.id)).checkedInAt?.toISOString()).toBe(
        new Date(NOW.getTime() - 10 * 60_000).toISOString(),
      );
      const [row] = await handle.db.select().from(checkIns).where(eq(checkIns.clientScanId, "k1"));
      expect(row).toMatchObject({ deviceClockSkewMs: skew, offline: true, outcome: "admitted" });

      const later = await seat("Future");
      const ahead = await sync({
        intent: "sync",
        deviceId: "door-ahead",
        eventId: "tablecloth-workshop",
        deviceNow: NOW.toISOString(),
        scans: [{ clientScanId: "f1", code: later.code, scannedAt: "2031-01-01T00:00:00.000Z" }],
      });
      expect(ahead.body.synced?.[0]?.outcome).toBe("admitted");
      expect((await ticketNow(later.id)).checkedInAt?.toISOString()).toBe(NOW.toISOString());
    },
  );

  it("a ticket of another event than the list's admits nobody, and a batch naming no event is refused", async () => {
    const ticket = await seat("Elsewhere");
    const { body } = await sync({
      intent: "sync",
      deviceId: "door-other",
      eventId: "sip-style",
      deviceNow: NOW.toISOString(),
      scans: [{ clientScanId: "o1", code: ticket.code, scannedAt: NOW.toISOString() }],
    });
    expect(body.synced?.[0]?.outcome).toBe("other-event");
    expect((await ticketNow(ticket.id)).checkedInAt).toBeNull();
    const [row] = await handle.db.select().from(checkIns).where(eq(checkIns.clientScanId, "o1"));
    expect(row).toMatchObject({ outcome: "other-event", ticketId: ticket.id });

    const before = await handle.db.select().from(checkIns);
    const refused = await sync({
      intent: "sync",
      deviceId: "door-other",
      deviceNow: NOW.toISOString(),
      scans: [{ clientScanId: "o2", code: ticket.code, scannedAt: NOW.toISOString() }],
    });
    expect(refused).toEqual({ status: 400, body: { error: "That request could not be read." } });
    expect(await handle.db.select().from(checkIns)).toHaveLength(before.length);
    expect((await ticketNow(ticket.id)).checkedInAt).toBeNull();
  });
});
