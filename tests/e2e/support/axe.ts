import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";

/**
 * An axe check of the whole page as a visitor who scrolls through it sees it. The browser does not
 * draw a `render-when-near` section (decision 069) until it comes near the viewport, and axe cannot
 * measure the contrast of text that has not been drawn: it files it under "incomplete", not under
 * violations, so a low-contrast footer would pass unseen. Those sections are drawn first.
 */
export async function axe(page: Page): Promise<AxeBuilder> {
  await page.evaluate(() => {
    for (const section of document.querySelectorAll<HTMLElement>(".render-when-near"))
      section.style.contentVisibility = "visible";
  });
  return new AxeBuilder({ page });
}
