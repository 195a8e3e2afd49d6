import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/db/client.server";
import { contactSubmissions } from "~/db/schema";
import { CONTACT_MAX_BODY_BYTES } from "~/contact/contact-action.server";
import { action } from "~/routes/contact";
import { createTestDatabase, testContext } from "../support/test-db";

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(() => handle?.close());

let client = 0;
/** Each case posts from its own address, so the rate limit never decides the answer. */
function post(body: BodyInit, headers: Record<string, string>) {
  const request = new Request("http://localhost/contact", { method: "POST", body, headers });
  /* eslint-disable @typescript-eslint/no-explicit-any */
  return action({
    request,
    context: testContext(handle, { clientIp: `192.0.2.${++client}` }),
    params: {},
  } as any) as Promise<any>;
  /* eslint-enable @typescript-eslint/no-explicit-any */
}
const form = "application/x-www-form-urlencoded";
const valid = new URLSearchParams({
  firstName: "Ama",
  lastName: "Khumalo",
  email: "ama@example.com",
  subject: "Hi",
  message: "Hello!",
});

describe("contact action with bodies that are not the form", () => {
  it.each([
    ["JSON", "application/json", "{}"],
    ["broken multipart", "multipart/form-data; boundary=x", "garbage"],
    ["plain text", "text/plain", valid.toString()],
    ["no content type", "", valid.toString()],
  ])("refuses %s with a 400 and a clear message", async (_name, type, body) => {
    const res = await post(body, type ? { "content-type": type } : {});
    expect(res.init.status).toBe(400);
    expect(res.data).toMatchObject({
      ok: false,
      toast: { title: "Please check your message", variant: "destructive" },
    });
  });

  it("refuses a body larger than the form can produce without reading it all", async () => {
    const huge = `message=${"m".repeat(CONTACT_MAX_BODY_BYTES + 1)}`;
    const res = await post(huge, { "content-type": form });
    expect(res.init.status).toBe(400);
    expect(res.data.toast.title).toBe("Please check your message");
  });

  it("a declared length over the limit is refused before reading", async () => {
    const res = await post("a=b", { "content-type": form, "content-length": String(CONTACT_MAX_BODY_BYTES * 10) });
    expect(res.init.status).toBe(400);
  });

  it("drops NUL and other control characters instead of failing in the database", async () => {
    const body = new URLSearchParams({
      firstName: "Ama\u0000",
      lastName: "Khu\u0007malo",
      email: "ama@example.com",
      subject: "Hi\u001b there",
      message: "Line one\nLine two\u0000",
    });
    const res = await post(body.toString(), { "content-type": form });
    expect(res.data.ok).toBe(true);
    const [row] = await handle.db.select().from(contactSubmissions);
    expect(row).toMatchObject({
      firstName: "Ama",
      lastName: "Khumalo",
      subject: "Hi there",
      message: "Line one\nLine two",
    });
  });

  it("a field made only of control characters counts as missing", async () => {
    const body = new URLSearchParams({ ...Object.fromEntries(valid), subject: "\u0000\u0000" });
    const res = await post(body.toString(), { "content-type": form });
    expect(res.init.status).toBe(400);
    expect(res.data.toast.title).toBe("Please fill in all fields");
    expect(res.data.values.firstName).toBe("Ama");
  });

  it("a multipart form (what some browsers send) is read like any other", async () => {
    const fd = new FormData();
    for (const [k, v] of valid) fd.set(k, v);
    const res = await post(fd, {});
    expect(res.data.ok).toBe(true);
  });
});
