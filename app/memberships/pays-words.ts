/** How a member pays, in the words her page and the owner's show: "Card, renews 31 Mar" or "Renews by email". */
const SHORT_MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

export type PaysBy =
  { kind: "card"; renewsOn: string | null; cardFailed: boolean; pausedUntil?: string | null } | { kind: "email" };

/** "31 Mar" for "2025-03-31". */
export const dayShortMonth = (isoDay: string) => {
  const [, month, day] = isoDay.split("-").map(Number) as [number, number, number];
  return `${day} ${SHORT_MONTHS[month - 1]}`;
};

export function paysInWords(pays: PaysBy): string {
  if (pays.kind === "email") return "Renews by email";
  if (pays.cardFailed) return "Card failed";
  if (pays.pausedUntil) return `Paused until ${dayShortMonth(pays.pausedUntil)}`;
  return pays.renewsOn ? `Card, renews ${dayShortMonth(pays.renewsOn)}` : "Card";
}
