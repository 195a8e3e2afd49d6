// Placeholder: the contact form (issue 3) replaces this.
export function ContactForm() {
  return null;
}
