/** Seed content for products, wardrobe solutions and consultation services (spec section 9). */
export interface CatalogSeed {
  slug: string;
  name: string;
  kind: "product" | "solution" | "service";
  priceCents: number | null;
  priceText: string;
  description: string;
  images: string[];
  /** null: unlimited. 0: sold out. */
  stockQuantity: number | null;
  sortOrder: number;
  /** false: kept out of listings (still reachable by its own page). Defaults to true. */
  visible?: boolean;
}

const img = (folder: string, slug: string, n: number) =>
  Array.from({ length: n }, (_, i) => `/images/${folder}/${slug}-${i + 1}.svg`);

export const catalogSeed: CatalogSeed[] = [
  {
    slug: "choker-necklaces",
    name: "Choker Necklaces",
    kind: "product",
    priceCents: 45000,
    priceText: "R 450.00",
    description:
      "Hand-beaded choker necklaces made from reclaimed beads and fabric offcuts. Each one is unique, finished by " +
      "hand and styled on our Honeys.",
    images: img("products", "choker-necklaces", 3),
    stockQuantity: 0,
    sortOrder: 1,
  },
  {
    slug: "beaded-jewellery",
    name: "Beaded Jewellery",
    kind: "product",
    priceCents: 45000,
    priceText: "R 450.00",
    description:
      "Statement beaded jewellery pieces, crafted from upcycled materials in warm, joyful colours. Wear them to lift " +
      "a simple outfit or to complete a bold one.",
    images: img("products", "beaded-jewellery", 3),
    stockQuantity: null,
    sortOrder: 2,
  },
  {
    slug: "dashiki-dress",
    name: "Dashiki Dress",
    kind: "product",
    priceCents: 45000,
    priceText: "R 450.00",
    description:
      "A flowing dashiki dress remade from pre-loved fabric. Vibrant prints, an easy fit and a story in every stitch.",
    images: img("products", "dashiki-dress", 2),
    stockQuantity: 0,
    sortOrder: 3,
  },
  {
    slug: "candy-earrings",
    name: "Candy Earrings",
    kind: "product",
    priceCents: 35000,
    priceText: "R 350.00",
    description:
      "Playful candy-coloured earrings, light to wear and made from recycled beads. A small batch: when they are gone, they are gone.",
    images: img("products", "candy-earrings", 3),
    stockQuantity: 10,
    sortOrder: 4,
  },
  {
    slug: "bucket-hats",
    name: "Bucket Hats",
    kind: "product",
    priceCents: 35000,
    priceText: "R 350.00",
    description:
      "Reversible bucket hats sewn from upcycled denim and prints. Sun-ready, festival-ready, and kind to the planet.",
    images: img("products", "bucket-hats", 2),
    stockQuantity: 0,
    sortOrder: 5,
  },
  {
    slug: "crochet-earrings",
    name: "Crochet Earrings",
    kind: "product",
    priceCents: 20000,
    priceText: "R 200.00",
    description:
      "Delicate crochet earrings worked by hand from leftover yarn. Feather-light, colourful and made to be noticed.",
    images: img("products", "crochet-earrings", 1),
    stockQuantity: null,
    sortOrder: 6,
  },
  {
    slug: "capsule-reset",
    name: "Capsule Reset",
    kind: "solution",
    priceCents: 375000,
    priceText: "R 3,750.00",
    description:
      "A five-hour session in your own wardrobe: we edit, restyle and plan a capsule that works for your life, using what you already own.",
    images: img("solutions", "capsule-reset", 1),
    stockQuantity: null,
    sortOrder: 7,
  },
  {
    slug: "garment-upcycling",
    name: "Garment Upcycling",
    kind: "solution",
    priceCents: 150000,
    priceText: "R 1,500.00",
    description:
      "Bring us a garment you love but no longer wear. We redesign and remake it into something you will reach for again and again.",
    images: img("solutions", "garment-upcycling", 1),
    stockQuantity: null,
    sortOrder: 8,
  },
  {
    slug: "capsule-wardrobe-reset",
    name: "Capsule Wardrobe Reset",
    kind: "solution",
    priceCents: 750000,
    priceText: "R 7,500.00",
    description:
      "Our complete wardrobe transformation: a full edit, upcycling of key pieces, a styled capsule and a lookbook of " +
      "outfits made for you.",
    images: img("solutions", "capsule-wardrobe-reset", 1),
    stockQuantity: null,
    sortOrder: 9,
  },
  {
    slug: "speak-and-teach",
    name: "Speak And Teach",
    kind: "service",
    priceCents: 65000,
    priceText: "R 650.00",
    description:
      "Sustainability education for your school, team or community group: an inspiring talk on slow fashion, " +
      "upcycling and conscious living.",
    images: img("services", "speak-and-teach", 1),
    stockQuantity: null,
    sortOrder: 10,
  },
  {
    slug: "fashion-consultation",
    name: "Fashion Consultation",
    kind: "service",
    priceCents: 85000,
    priceText: "R 850.00",
    description:
      "A one-on-one fashion consultation: your shape, your colours, your style story, and how to build it sustainably.",
    images: img("services", "fashion-consultation", 1),
    stockQuantity: null,
    sortOrder: 11,
  },
  {
    slug: "honey-bee-coaching",
    name: "Honey Bee Coaching",
    kind: "service",
    priceCents: 45000,
    priceText: "R 450.00",
    description:
      "Career and confidence coaching with Honey Bee: find your voice, present yourself with purpose and step into your next chapter.",
    images: img("services", "honey-bee-coaching", 1),
    stockQuantity: null,
    sortOrder: 12,
  },
];

/** The test product for a real R5 payment (spec: /test). */
export const testProductSeed: CatalogSeed = {
  slug: "test-product",
  name: "Test Product",
  kind: "product",
  priceCents: 500,
  priceText: "R 5.00",
  description: "A R5 product for testing the full payment flow.",
  images: img("products", "test-product", 1),
  stockQuantity: null,
  sortOrder: 99,
  visible: false,
};
