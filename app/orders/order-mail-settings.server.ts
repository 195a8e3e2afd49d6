import type { AppConfig } from "~/config.server";

export interface MailSettingsForOrders {
  siteUrl: string;
  /** OWNER_EMAIL: used when the owner stored no notification address in /admin/settings. */
  ownerEmail: string;
  /** SESSION_SECRET: signs the link to the order's private page that the confirmation carries (decision 106). */
  secret: string;
}

export const mailSettingsForOrders = (
  config: Pick<AppConfig, "siteUrl" | "sessionSecret" | "mail">,
): MailSettingsForOrders => ({
  siteUrl: config.siteUrl,
  ownerEmail: config.mail.ownerEmail,
  secret: config.sessionSecret,
});
