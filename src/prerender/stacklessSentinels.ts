import type { Plugin } from 'vite';

/** React DOM's client build, the one module this plugin rewrites. */
export const REACT_DOM_CLIENT = /react-dom\/cjs\/react-dom-client\.production\.js$/;

/**
 * The error objects React DOM creates once, while its module loads, and only ever compares by
 * identity (thrown and caught inside React to suspend, hydrate selectively or give up hydrating).
 */
export const SENTINELS = [
  'HydrationMismatchException',
  'SuspenseException',
  'SuspenseyCommitException',
  'SuspenseActionException',
  'SelectiveHydrationException',
] as const;

const HELPER = '__smwSentinelError';

/**
 * An `Error` made without capturing a stack: `instanceof Error`, the same message, no `stack`.
 * Written out as source because it runs inside React DOM's module; appended (a declaration is
 * hoisted), so the module's "use strict" stays its first statement.
 */
export const HELPER_SOURCE = `\nfunction ${HELPER}(message) { var error = Object.create(Error.prototype); error.message = message; return error; }\n`;

const sentinelPattern = new RegExp(
  `\\b(${SENTINELS.join('|')})(\\s*=\\s*)Error\\((formatProdErrorMessage\\(\\d+\\))\\)`,
  'g',
);

/**
 * React DOM's sentinels made without a stack trace. A new `Error` while a debugger is attached
 * (DevTools, the Chromium Playwright drives for the bench and the browser tests) records where it
 * was made, and React DOM makes five while its module runs: V8 then re-parses the whole 180 KB
 * module for its source positions, 50–60 ms on this machine (about 0.2 s at CPU ×4), inside the
 * second stage's evaluation. Without a debugger no position is looked up, so a player's load is
 * unchanged either way: this keeps the measured figures the player's. Throws if React DOM no
 * longer makes every one of them so (a new version): the rewrite is checked, not hoped.
 */
export function rewriteSentinels(code: string): string {
  const found: string[] = [];
  const rewritten = code.replace(
    sentinelPattern,
    (_match, name: string, assign: string, message: string) => {
      found.push(name);
      return `${name}${assign}${HELPER}(${message})`;
    },
  );
  const missing = SENTINELS.filter((name) => !found.includes(name));
  if (missing.length || found.length !== SENTINELS.length) {
    throw new Error(
      `stackless sentinels: React DOM's client build no longer makes ${missing.join(', ') || 'these errors'} as expected (found ${found.join(', ') || 'none'})`,
    );
  }
  return rewritten + HELPER_SOURCE;
}

/**
 * Applies `rewriteSentinels` to React DOM's client build in the client bundle, and fails the build
 * if a bundle holds React DOM's client build without the rewrite (a renamed file would otherwise
 * skip it without a word).
 */
export function stacklessSentinelsPlugin(): Plugin {
  let rewritten = false;
  return {
    name: 'smw-stackless-sentinels',
    apply: 'build',
    buildStart() {
      rewritten = false;
    },
    transform(code, id) {
      if (this.environment?.config.build.ssr || !REACT_DOM_CLIENT.test(id)) return null;
      try {
        const out = rewriteSentinels(code);
        rewritten = true;
        return { code: out, map: null };
      } catch (error) {
        return this.error(error instanceof Error ? error.message : String(error));
      }
    },
    generateBundle(_options, bundle) {
      if (this.environment?.config.build.ssr || rewritten) return;
      const holdsReactDom = Object.values(bundle).some(
        (chunk) =>
          chunk.type === 'chunk' && Object.keys(chunk.modules).some((id) => /react-dom/.test(id)),
      );
      if (holdsReactDom)
        this.error(
          'stackless sentinels: the bundle holds React DOM but its client build was not rewritten',
        );
    },
  };
}
