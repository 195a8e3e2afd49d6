// Placeholder until built.
export function loader() {
  return new Response("Not implemented", { status: 501 });
}
