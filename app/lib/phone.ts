/**
 * South African phone numbers, stored in international form ("+27 72 481 3396") and linked without
 * spaces (tel:+27724813396, https://wa.me/27724813396). SA-only on purpose (decision 107): the shop's
 * numbers are South African, and a careful rule for one country beats a loose one for all.
 */

/** The 9 digits after +27: a leading 1-8 (0 is the trunk prefix, 9 is not allocated). */
const NATIONAL = /^[1-8]\d{8}$/;

/**
 * "072 481 3396", "0724813396", "+27 72 481 3396", "27724813396", "+27 (0)72 481 3396",
 * "0027 72 481 3396" -> "+27 72 481 3396"; null for anything that is not one SA number.
 */
export function normaliseSaPhone(typed: string): string | null {
  const text = typed.trim();
  // Digits with the usual separators and at most one leading +; letters or a second number are junk.
  if (!/^\+?[\d\s().-]+$/.test(text) || text.length > 30) return null;
  const digits = text.replace(/\D/g, "");
  let national: string;
  if (text.startsWith("+")) {
    if (!digits.startsWith("27")) return null;
    national = digits.slice(2).replace(/^0/, "");
  } else if (digits.startsWith("0027")) {
    national = digits.slice(4).replace(/^0/, "");
  } else if (digits.startsWith("27") && digits.length >= 11) {
    national = digits.slice(2).replace(/^0/, "");
  } else if (digits.startsWith("0")) {
    national = digits.slice(1);
  } else {
    return null;
  }
  if (!NATIONAL.test(national)) return null;
  return `+27 ${national.slice(0, 2)} ${national.slice(2, 5)} ${national.slice(5)}`;
}

/** tel:+27724813396; a number stored before numbers were normalised links with its own digits. */
export function telHref(phone: string): string {
  const normalised = normaliseSaPhone(phone);
  return `tel:${(normalised ?? phone).replace(/[^+0-9]/g, "")}`;
}

/**
 * https://wa.me/27724813396 (WhatsApp's click-to-chat link takes the country code and number, digits
 * only); null when the number is not an SA one, since a local number's country cannot be known.
 */
export function whatsAppHref(phone: string): string | null {
  const normalised = normaliseSaPhone(phone);
  return normalised ? `https://wa.me/${normalised.replace(/\D/g, "")}` : null;
}

export const SA_PHONE_EXAMPLE = "072 481 3396 or +27 72 481 3396";
