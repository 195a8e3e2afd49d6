/**
 * The checks Google's rich results test makes of product variants (developers.google.com/search/docs/appearance/
 * structured-data/product-variants), as errors in words: an equivalent of the structured-data validators, which
 * need the network. An empty list is a product group search engines can read.
 */
const VARIES_BY = ["size", "color", "material", "pattern", "suggestedAge", "suggestedGender"];
const AVAILABILITY =
  /^https:\/\/schema\.org\/(InStock|OutOfStock|LimitedAvailability|PreOrder|BackOrder|SoldOut|Discontinued)$/;
const ABSOLUTE = /^https?:\/\/[^\s/]+\/\S*$/;

type Json = Record<string, unknown>;

export function productGroupErrors(ld: Json): string[] {
  const errors: string[] = [];
  const need = (ok: boolean, message: string) => {
    if (!ok) errors.push(message);
  };
  need(ld["@context"] === "https://schema.org", "@context is not https://schema.org");
  need(ld["@type"] === "ProductGroup", "@type is not ProductGroup");
  need(typeof ld.name === "string" && ld.name !== "", "the group has no name");
  need(typeof ld.productGroupID === "string" && ld.productGroupID !== "", "the group has no productGroupID");
  const variesBy = Array.isArray(ld.variesBy) ? (ld.variesBy as unknown[]) : [];
  const properties = variesBy.map((v) => String(v).replace("https://schema.org/", ""));
  for (const p of properties) need(VARIES_BY.includes(p), `variesBy ${p} is not a property Google reads`);
  const variants = Array.isArray(ld.hasVariant) ? (ld.hasVariant as Json[]) : [];
  need(variants.length > 0, "the group has no variants");
  const seen = new Set<string>();
  for (const [i, v] of variants.entries()) {
    const at = `variant ${i + 1}`;
    need(v["@type"] === "Product", `${at} is not a Product`);
    need(typeof v.name === "string" && v.name !== "", `${at} has no name`);
    need(v.inProductGroupWithID === ld.productGroupID, `${at} does not name its group`);
    // A product without photos has none to give; one that is given must be absolute.
    need(
      v.image === undefined || (typeof v.image === "string" && ABSOLUTE.test(v.image)),
      `${at}'s image URL is not absolute`,
    );
    const values = properties.map((p) => v[p]);
    for (const [j, value] of values.entries())
      need(typeof value === "string" && value !== "", `${at} has no ${properties[j]}`);
    const key = JSON.stringify([values, v.additionalProperty ?? null]);
    need(!seen.has(key), `${at} repeats another variant's values`);
    seen.add(key);
    const offer = v.offers as Json | undefined;
    need(!!offer && offer["@type"] === "Offer", `${at} has no Offer`);
    if (!offer) continue;
    need(typeof offer.price === "string" && Number(offer.price) > 0, `${at}'s offer has no price above zero`);
    need(offer.priceCurrency === "ZAR", `${at}'s offer is not in ZAR`);
    need(
      typeof offer.availability === "string" && AVAILABILITY.test(offer.availability),
      `${at}'s availability is not a schema.org value`,
    );
    need(typeof offer.url === "string" && ABSOLUTE.test(offer.url), `${at}'s offer has no absolute URL`);
  }
  return errors;
}
