import { simpleParser } from "mailparser";
import { startSmtpSink } from "../fakes/smtp-sink";
import { startInstance, tempDataDir, type Instance } from "./support/instances";
import { expect, test } from "./support/test";

/*
 * Issue 21: the reminder schedule runs inside the server. One instance and one data folder, restarted
 * with its clock moved on as if it had been off for days: each start catches up once, and a restart
 * on the same day sends nothing again.
 */
test.setTimeout(180_000);

const BUYER = "reminded@example.test";

test("a server restarted after days off sends the one current reminder, then the lapse, each once", async ({
  page,
}) => {
  const dataDir = tempDataDir();
  const sink = await startSmtpSink();
  let app: Instance | undefined;
  /** Starts the app at `now` and waits for its first membership pass (the catch-up) to finish. */
  const startAt = async (now: string) => {
    app = await startInstance({ DATA_DIR: dataDir, APP_NOW: now, SMTP_URL: sink.url });
    await expect
      .poll(() => /\[members\] catch-up pass after start/.test(app!.output()), { timeout: 20_000 })
      .toBe(true);
  };
  const subjects = async () => {
    const mails = await Promise.all(sink.messages.filter((m) => m.to[0] === BUYER).map((m) => simpleParser(m.raw)));
    return mails.map((m) => m.subject).filter((s) => s && !s.startsWith("Your Honey Bee order"));
  };
  try {
    await startAt("2025-09-10T10:00:00+02:00");
    await page.goto(`${app!.base}/checkout?type=membership&item=style-starter`);
    await page.getByLabel("First Name").fill("Nomsa");
    await page.getByLabel("Last Name").fill("Khumalo");
    await page.getByLabel("Email").fill(BUYER);
    await page.getByLabel("Phone").fill("082 555 0123");
    await page.getByLabel("Address").fill("5 Bree Street\nCape Town");
    await page.getByRole("button", { name: "Proceed to Payment" }).click();
    await page.getByRole("button", { name: "Pay R 150.00" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Payment Successful!" })).toBeVisible();
    await app!.stop();

    // Off until 6 October: the week-ahead reminder for 10 October is still current, and goes once.
    await startAt("2025-10-06T09:00:00+02:00");
    await expect.poll(subjects, { timeout: 20_000 }).toEqual(["Your Honey Bee membership renews on 10 October 2025"]);
    await app!.stop();
    await startAt("2025-10-06T09:30:00+02:00");
    expect(app!.output()).toContain("catch-up pass after start: 0 reminded, 0 now due, 0 lapsed");
    await app!.stop();

    // Off until 20 October: the day-before reminder and the due day were missed; the lapse's last email goes, once.
    await startAt("2025-10-20T08:00:00+02:00");
    await expect
      .poll(subjects, { timeout: 20_000 })
      .toEqual(["Your Honey Bee membership renews on 10 October 2025", "Your Honey Bee membership has lapsed"]);
    await app!.stop();
    await startAt("2025-10-20T12:00:00+02:00");
    // The restart on the same day queues nothing: the catch-up pass reports no reminder and no lapse.
    expect(app!.output()).toContain("catch-up pass after start: 0 reminded, 0 now due, 0 lapsed");
    expect(await subjects()).toHaveLength(2);
  } finally {
    await app?.stop();
    await sink.close();
  }
});
