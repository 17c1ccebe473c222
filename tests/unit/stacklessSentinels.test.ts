import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  HELPER_SOURCE,
  REACT_DOM_CLIENT,
  rewriteSentinels,
  SENTINELS,
} from '../../src/prerender/stacklessSentinels';

const require = createRequire(import.meta.url);
// The file the browser build bundles (the package's exports do not name it).
const clientPath = join(
  dirname(require.resolve('react-dom/package.json')),
  'cjs/react-dom-client.production.js',
);
const source = readFileSync(clientPath, 'utf8');

/** Runs a CommonJS module's source as Node would, with the real `require`. */
function evaluate(code: string): Record<string, unknown> {
  const module = { exports: {} as Record<string, unknown> };
  const run = new Function('module', 'exports', 'require', code) as (
    m: typeof module,
    e: Record<string, unknown>,
    r: NodeJS.Require,
  ) => void;
  run(module, module.exports, require);
  return module.exports;
}

describe('React DOM sentinels made without a stack', () => {
  it('the plugin finds React DOM’s client build by its path', () => {
    expect(REACT_DOM_CLIENT.test(clientPath.replaceAll('\\', '/'))).toBe(true);
    expect(REACT_DOM_CLIENT.test('/x/node_modules/react-dom/cjs/react-dom.production.js')).toBe(
      false,
    );
  });

  it('rewrites each of the five, and no other Error, in the installed React DOM', () => {
    const out = rewriteSentinels(source);
    for (const name of SENTINELS) {
      expect(out).toMatch(
        new RegExp(`\\b${name}\\s*=\\s*__smwSentinelError\\(formatProdErrorMessage\\(\\d+\\)\\)`),
      );
      expect(out).not.toMatch(new RegExp(`\\b${name}\\s*=\\s*Error\\(`));
    }
    const errorsBefore = source.match(/\bError\(/g)?.length ?? 0;
    const errorsAfter = out.match(/\bError\(/g)?.length ?? 0;
    expect(errorsBefore - errorsAfter).toBe(SENTINELS.length);
    // "use strict" stays the module's first statement: the helper goes at the end.
    expect(out.startsWith(source.slice(0, source.indexOf('"use strict";') + 13))).toBe(true);
    expect(out.endsWith(HELPER_SOURCE)).toBe(true);
  });

  it('the rewritten module still loads and exports React DOM’s client API', () => {
    const exports = evaluate(rewriteSentinels(source));
    expect(typeof exports.createRoot).toBe('function');
    expect(typeof exports.hydrateRoot).toBe('function');
  });

  it('a sentinel is an Error with React’s message and no captured stack', () => {
    const make = new Function(`${HELPER_SOURCE}; return __smwSentinelError;`)() as (
      message: string,
    ) => Error;
    const error = make('Suspense Exception');
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toBe('Suspense Exception');
    expect(error.name).toBe('Error');
    expect(Object.hasOwn(error, 'stack')).toBe(false);
    // React tells the five apart by identity: each call makes a new object.
    expect(make('Suspense Exception')).not.toBe(make('Suspense Exception'));
  });

  it('refuses a React DOM that no longer makes them so, naming what it missed', () => {
    const withoutOne = source.replace(
      /SelectiveHydrationException(\s*=\s*)Error\(/,
      'SelectiveHydrationException$1new Error(',
    );
    expect(() => rewriteSentinels(withoutOne)).toThrow(/SelectiveHydrationException/);
    expect(() => rewriteSentinels('"use strict";')).toThrow(/found none/);
  });
});
