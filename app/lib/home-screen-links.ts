/**
 * Here in lib/ and not named admin-…: the sign-in page links it too, and must load no admin chunk.
 * The admin installs on a phone's home screen (public/admin.webmanifest: standalone, opens at /admin).
 * Only admin pages link it, so a visitor's browser never offers to install the shop's back office.
 */
export const ADMIN_APP_LINKS = [
  { rel: "manifest", href: "/admin.webmanifest" },
  { rel: "apple-touch-icon", href: "/admin-icons/apple-touch-icon.png" },
];
