/** When the site was built (ms since the epoch): vite.config.ts defines it once per build. */
declare const __SMW_BUILT_AT__: number;
/**
 * The launch calendar the site was built with (vite.config.ts: the server's environment variables
 * LAUNCH_AT, EARLY_BIRD_END and PRICE_*_SOL, the spec's when unset): pre-rendered pages and
 * their hydration use it until the server's calendar arrives with the session.
 */
declare const __SMW_CALENDAR__: import('../contract/calendar').LaunchCalendar;
