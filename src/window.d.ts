/** What the page's inline scripts leave on window for the app. */
/** The tap keeper (index.html): holds the first tap until the app answers taps. */
interface Window {
  __smwTaps?: {
    /** Whether the app has hydrated (and released the keeper). */
    hydrated: boolean;
    /** The app answers taps: a held tap is replayed. */
    release(): void;
    /** The app's code cannot load: the keeper stands down. */
    stop(): void;
  };
  /** Fetches ahead the files the page lists under a key (src/app/bootInline.ts). */
  __smwPreload?: (key: string | null) => void;
  /** The session calls the head's inline script sent (src/app/bootInline.ts). */
  __smwBoot?: import('./app/earlySession').HeadBoot;
}
