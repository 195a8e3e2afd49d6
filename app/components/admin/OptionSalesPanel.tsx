import type { OptionSales } from "~/catalog/option-sales.server";
import { Panel } from "./Panel";

/** What sells by size or colour (issue 44): one line per product with options, its rows by units sold. */
export function OptionSalesPanel({ sales, period }: { sales: OptionSales; period: string }) {
  return (
    <Panel title="Sizes and Colours Sold" period={period}>
      <ul className="space-y-2 text-sm">
        {sales.map((product) => (
          <li key={product.product} className="border-b border-ink/5 pb-2">
            <span className="font-semibold">{product.product}:</span>{" "}
            {product.rows.map((row) => `${row.label} sold ${row.sold.toLocaleString("en-ZA")}`).join(", ")}
          </li>
        ))}
      </ul>
    </Panel>
  );
}
