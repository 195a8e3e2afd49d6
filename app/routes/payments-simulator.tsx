// Placeholder until this screen is built.
export default function Screen() {
  return (
    <section className="container-page py-16">
      <h1 className="text-3xl font-semibold">Coming soon</h1>
    </section>
  );
}
