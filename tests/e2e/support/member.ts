import type { Page } from "@playwright/test";
import { simpleParser } from "mailparser";
import type { startSmtpSink } from "../../fakes/smtp-sink";
import { expect } from "./test";

/**
 * Asks /account for a sign-in link for `email` and returns the link from the newest sign-in email that
 * reached the SMTP sink, pointed at this instance (`url` makes an instance's address from a path).
 */
export async function emailedSignInLink(
  page: Page,
  sink: Awaited<ReturnType<typeof startSmtpSink>>,
  email: string,
  url: (path: string) => string,
): Promise<string> {
  const before = sink.messages.length;
  await page.goto(url("/account"));
  await page.getByRole("textbox", { name: "Email" }).fill(email);
  await page.getByRole("button", { name: "Email me a sign-in link" }).click();
  let text = "";
  await expect
    .poll(
      async () => {
        for (const message of sink.messages.slice(before)) {
          const mail = await simpleParser(message.raw);
          if (message.to[0] === email && mail.subject === "Your Honey Bee sign-in link") text = mail.text ?? "";
        }
        return text;
      },
      { timeout: 20_000 },
    )
    .toContain("/account/sign-in?token=");
  const link = new URL(/https?:\/\/\S+\/account\/sign-in\?token=[A-Za-z0-9_-]+/.exec(text)![0]);
  return url(`${link.pathname}${link.search}`);
}
