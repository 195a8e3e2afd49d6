/** The two sample blog posts seeded on first start. */
export interface PostSeed {
  slug: string;
  title: string;
  excerpt: string;
  content: string;
  author: string;
  category: string;
  publishedOn: string;
  image: string | null;
  views: number;
  likes: number;
}

export const postsSeed: PostSeed[] = [
  {
    slug: "the-art-of-upcycling",
    title: "The Art of Upcycling: Giving Old Clothes New Life",
    excerpt: "How a forgotten garment becomes your new favourite piece, and why it matters for the planet.",
    content:
      `Every garment has a story. When we upcycle, we do not throw that story away: we add a new chapter.\n\n` +
      `Upcycling starts with looking again. The tablecloth in the cupboard becomes a wrap-around skirt. ` +
      `The dress that no longer fits becomes a top, a headwrap and a pair of earrings. ` +
      `Beads from a broken necklace become a choker that turns heads.\n\n` +
      `Why does it matter? Fashion is one of the world's biggest polluters, and most clothes are worn only a handful ` +
      `of times before they are thrown away. ` +
      `Every piece we remake is one less piece in a landfill and one less new garment that has to be produced.\n\n` +
      `At our studio, our Honeys model pieces that were once forgotten. ` +
      `Come to a workshop, bring something you love but no longer wear, and let's give it a new life together.`,
    author: "Honey Bee",
    category: "Sustainability",
    publishedOn: "2025-07-15",
    image: "/images/blog/the-art-of-upcycling.svg",
    views: 0,
    likes: 0,
  },
  {
    slug: "building-a-capsule-wardrobe",
    title: "Building a Capsule Wardrobe That Tells Your Story",
    excerpt: "Fewer pieces, more outfits, and a wardrobe that feels like you. Our five steps to a capsule that lasts.",
    content: `A capsule wardrobe is not about owning less for the sake of it. It is about owning what you love and wearing all of it.

1. Start with what you have. Take everything out and try it on. Keep what fits and makes you feel good.
2. Find your colours. Choose a few base colours and one or two that make your skin glow.
3. Mix textures and prints. Heritage prints, denim and knits work together more often than you think.
4. Upcycle before you buy. A new hem, a dye bath or beadwork can make an old favourite new again.
5. Buy slowly. When you do buy, choose local, handmade and made to last.

Our Capsule Reset sessions walk you through each step in your own wardrobe. Your style, your story: sustainably.`,
    author: "Honey Bee",
    category: "Style Tips",
    publishedOn: "2025-08-02",
    image: "/images/blog/building-a-capsule-wardrobe.svg",
    views: 0,
    likes: 0,
  },
];
