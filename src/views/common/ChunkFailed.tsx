import { reloadPage } from '../../platform/location';

/** Stand-in for a page whose chunk could not load: say so and offer the reload that fixes it. */
export function ChunkFailed() {
  return (
    <main className="route-loading" role="alert">
      <p>This page could not load. Please check your internet connection and reload.</p>
      <button type="button" onClick={reloadPage}>
        Reload Page
      </button>
    </main>
  );
}
