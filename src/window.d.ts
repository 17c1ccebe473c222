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
    /** The held tap is dropped (its dialog's frame closed): nothing is replayed. */
    cancel(): void;
  };
  /** A held tap's dialog frame, drawn before the app runs (src/app/bootInline.ts). */
  __smwTapShell?: {
    open(control: HTMLElement): void;
    close(): void;
    /** The held tap is replayed on `control`: focus stays in the frame until the app's dialog. */
    replaying(control: HTMLElement): void;
    /** The replayed control, once, for the dialog that opened from it to give focus back to. */
    takeReturn(): HTMLElement | null;
  };
  /** Fetches ahead the files the page lists under a key (src/app/bootInline.ts). */
  __smwPreload?: (key: string | null) => void;
  /** The session calls the head's inline script sent (src/app/bootInline.ts). */
  __smwBoot?: import('./app/headBoot').HeadBoot;
}

/** The session chart's plan, written into the head's boot script by the build (src/prerender). */
declare const __SESSION_PLAN__: import('../machines/session/session.plan').SessionPlan;
