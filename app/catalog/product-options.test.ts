import { describe, expect, it } from "vitest";
import {
  choosableValues,
  combinations,
  productGroupJsonLd,
  readOptionValues,
  summarizeRows,
  variantLabel,
  variantLineName,
  type VariantView,
} from "./product-options";
import { productGroupErrors } from "../../tests/support/product-group-check";

const sizes = { name: "Size", values: ["S", "M", "L"] };
const colours = { name: "Colour", values: ["Indigo", "Mustard"] };
const row = (id: number, value1: string, available: number | null, extra: Partial<VariantView> = {}): VariantView => ({
  id,
  value1,
  value2: "",
  priceCents: null,
  image: null,
  enabled: true,
  available,
  ...extra,
});

describe("the owner's values", () => {
  it("reads a comma list, trimming and keeping her order", () => {
    expect(readOptionValues(" S, M ,L,  XL ,")).toEqual({ ok: true, values: ["S", "M", "L", "XL"] });
  });

  it("refuses an empty list, a value twice (any case) and a value too long", () => {
    expect(readOptionValues(" , ")).toMatchObject({ ok: false, error: expect.stringContaining("at least one") });
    expect(readOptionValues("S, m, M")).toEqual({ ok: false, error: '"M" is listed twice.' });
    expect(readOptionValues("x".repeat(31))).toMatchObject({ ok: false });
  });
});

describe("rows", () => {
  it("combines two options, the first outermost, in typed order", () => {
    expect(combinations([sizes, colours]).map((c) => `${c.value1}/${c.value2}`)).toEqual([
      "S/Indigo",
      "S/Mustard",
      "M/Indigo",
      "M/Mustard",
      "L/Indigo",
      "L/Mustard",
    ]);
    expect(combinations([sizes])).toEqual([
      { value1: "S", value2: "" },
      { value1: "M", value2: "" },
      { value1: "L", value2: "" },
    ]);
    expect(combinations([])).toEqual([]);
  });

  it("names a row the way the shop writes it", () => {
    expect(variantLineName("Bucket Hat", [sizes, colours], { value1: "M", value2: "Mustard" })).toBe(
      "Bucket Hat — Size M, Mustard",
    );
    expect(variantLabel([{ name: "Size", values: ["10-12"] }], { value1: "10-12", value2: "" })).toBe("Size 10-12");
    expect(variantLabel([colours], { value1: "Indigo", value2: "" })).toBe("Indigo");
  });
});

describe("the summary a card shows", () => {
  it("counts the rows left for LIMITED STOCK and sells out only when every row is gone", () => {
    expect(summarizeRows(35000, [row(1, "S", 2), row(2, "M", 0), row(3, "L", 1)])).toEqual({
      lowestCents: 35000,
      priceText: "R 350.00",
      soldOut: false,
      limitedStock: 3,
    });
    expect(summarizeRows(35000, [row(1, "S", 0), row(2, "M", 0)]).soldOut).toBe(true);
  });

  it("says From the lowest price when rows differ, leaving switched-off rows out", () => {
    const rows = [
      row(1, "S", null),
      row(2, "XL", null, { priceCents: 42000 }),
      row(3, "XS", 5, { priceCents: 100, enabled: false }),
    ];
    expect(summarizeRows(35000, rows)).toEqual({
      lowestCents: 35000,
      priceText: "From R 350.00",
      soldOut: false,
      limitedStock: null,
    });
  });

  it("marks values with nothing left as not choosable", () => {
    const rows = [row(1, "S", 2), row(2, "M", 0), row(3, "L", 1, { enabled: false })];
    expect([...choosableValues(rows, 1)]).toEqual(["S"]);
  });
});

describe("structured data", () => {
  it("describes a product group with a variant per row on sale, each with its offer", () => {
    const ld = productGroupJsonLd({
      siteUrl: "https://honeybee.example",
      path: "/product/bucket-hat",
      groupId: "bucket-hat",
      name: "Bucket Hat",
      description: "Upcycled denim.",
      images: ["/images/hat.jpg"],
      priceCents: 35000,
      options: [sizes, { name: "Fabric", values: ["Denim"] }],
      rows: [
        { ...row(1, "S", 2), value2: "Denim" },
        { ...row(2, "M", 0), value2: "Denim", priceCents: 38000 },
        { ...row(3, "L", 1), value2: "Denim", enabled: false },
      ],
    });
    expect(productGroupErrors(ld)).toEqual([]);
    expect(
      productGroupErrors({
        ...ld,
        variesBy: ["https://schema.org/fabric"],
        hasVariant: [{ ...ld.hasVariant[0], offers: undefined }],
      }),
    ).toEqual(["variesBy fabric is not a property Google reads", "variant 1 has no fabric", "variant 1 has no Offer"]);
    expect(ld["@type"]).toBe("ProductGroup");
    expect(ld.variesBy).toEqual(["https://schema.org/size"]);
    expect(ld.hasVariant).toHaveLength(2);
    expect(ld.hasVariant[1]).toMatchObject({
      "@type": "Product",
      sku: "bucket-hat-2",
      name: "Bucket Hat — Size M, Denim",
      size: "M",
      additionalProperty: [{ "@type": "PropertyValue", name: "Fabric", value: "Denim" }],
      image: "https://honeybee.example/images/hat.jpg",
      offers: {
        "@type": "Offer",
        url: "https://honeybee.example/product/bucket-hat?option1=M&option2=Denim",
        price: "380.00",
        priceCurrency: "ZAR",
        availability: "https://schema.org/OutOfStock",
      },
    });
  });
});
