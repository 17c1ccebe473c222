/** The landing page (§2 Home). A placeholder until the page itself lands in this folder. */
export function HomePage() {
  return (
    <main className="home-page">
      <h1>Solana Mafia Wars</h1>
    </main>
  );
}
