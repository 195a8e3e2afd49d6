const LABELS: Record<string, string> = {
  pending: "Pending",
  paid: "Paid",
  failed: "Failed",
  cancelled: "Cancelled",
  expired: "Expired",
  refunded: "Refunded",
  partially_refunded: "Partly refunded",
};

/** An order's status as the owner reads it, with the two flags that ask her to act. */
export function OrderStatus({
  status,
  needsAttention,
  refundPending,
  refund,
}: {
  status: string;
  needsAttention?: boolean;
  refundPending?: boolean;
  /** "Refunded R 350.00 on 27 Nov" in place of the bare "Refunded" (see refundWords). */
  refund?: string | null;
}) {
  // The spec's badges: paid (completed) is the default badge, failed the destructive one, the rest secondary.
  const style =
    status === "paid" ? "bg-ink text-cream" : status === "failed" ? "bg-red-800 text-white" : "bg-cream-deep text-ink";
  return (
    <span className="inline-flex flex-wrap gap-1">
      <span className={`inline-block rounded-full px-2.5 py-0.5 text-xs font-semibold ${style}`}>
        {refund ?? LABELS[status] ?? status}
      </span>
      {refundPending ? (
        <span className="inline-block rounded-full bg-honey-light px-2.5 py-0.5 text-xs font-semibold text-ink">
          Refund pending
        </span>
      ) : null}
      {needsAttention ? (
        <span className="inline-block rounded-full bg-red-800 px-2.5 py-0.5 text-xs font-semibold text-white">
          Needs attention
        </span>
      ) : null}
    </span>
  );
}
