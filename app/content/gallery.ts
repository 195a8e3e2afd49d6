/** The 12 workshop images the site shipped with, seeded once into a new database. */
export const GALLERY_SEED = Array.from({ length: 12 }, (_, i) => {
  const n = String(i + 1).padStart(2, "0");
  return { src: `/images/gallery/workshop-${n}.svg`, alt: `Workshop moment ${i + 1} of 12`, sortOrder: i + 1 };
});
