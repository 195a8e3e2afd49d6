import { useEffect, useState } from "react";
import { Link, useLocation } from "react-router";
import { onBagCount, readBagCount } from "./bag-count";

/**
 * The header's "Bag" link. The server draws it without a count (the page is cached for everyone);
 * the browser adds "(N)" from the count cookie after load and after each change.
 */
export function BagLink() {
  const [count, setCount] = useState<number | null>(null);
  const location = useLocation();
  useEffect(() => setCount(readBagCount()), [location]);
  useEffect(() => onBagCount(setCount), []);
  return (
    <Link
      to="/bag"
      className="flex min-h-11 shrink-0 items-center rounded-full px-2 text-sm font-semibold hover:bg-honey-light"
      data-testid="bag-link"
    >
      Bag{count ? ` (${count})` : ""}
    </Link>
  );
}
