/** When the site was built (ms since the epoch): vite.config.ts defines it once per build. */
declare const __SMW_BUILT_AT__: number;
