/** The card every panel of the owner's order page sits in. */
export const orderSectionClass = "card space-y-3 p-4 sm:p-6";
