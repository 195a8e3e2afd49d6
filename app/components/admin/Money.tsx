import { formatRand } from "~/lib/money";

/** An amount in rand that never breaks over two lines ("R / 350.00" on a phone reads as two things). */
export function Money({ cents, className = "" }: { cents: number; className?: string }) {
  return <span className={`whitespace-nowrap ${className}`}>{formatRand(cents)}</span>;
}
