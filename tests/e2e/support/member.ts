import type { Page } from "@playwright/test";
import { simpleParser } from "mailparser";
import type { startSmtpSink } from "../../fakes/smtp-sink";
import { expect } from "./test";

type Sink = Awaited<ReturnType<typeof startSmtpSink>>;

/**
 * Asks /account for a sign-in link for `email` and returns the link from the newest sign-in email that
 * reached the SMTP sink, pointed at this instance (`url` makes an instance's address from a path).
 */
export async function emailedSignInLink(
  page: Page,
  sink: Sink,
  email: string,
  url: (path: string) => string,
): Promise<string> {
  const before = sink.messages.length;
  await page.goto(url("/account"));
  await page.getByRole("textbox", { name: "Email" }).fill(email);
  await page.getByRole("button", { name: "Email me a sign-in link" }).click();
  return newestSignInLink(sink, email, before, url, /https?:\/\/\S+\/account\/sign-in\?token=[A-Za-z0-9_-]+/);
}

/**
 * The link `pattern` finds in the newest sign-in email to `to` that arrived after `before` messages, pointed
 * at this instance: the link /account sends, or one from a checkout that also carries its return path.
 */
export async function newestSignInLink(
  sink: Sink,
  to: string,
  before: number,
  url: (path: string) => string,
  pattern: RegExp,
): Promise<string> {
  let text = "";
  await expect
    .poll(
      async () => {
        for (const message of sink.messages.slice(before)) {
          const mail = await simpleParser(message.raw);
          if (message.to[0] === to && mail.subject === "Your Honey Bee sign-in link") text = mail.text ?? "";
        }
        return text;
      },
      { timeout: 20_000 },
    )
    .toContain("/account/sign-in?token=");
  const link = new URL(pattern.exec(text)![0]);
  return url(`${link.pathname}${link.search}`);
}
