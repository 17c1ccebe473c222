import { test as base, expect, type Page } from '@playwright/test';
import { startLocalServer, type RunningServer, type StartOptions } from './local-server';

/**
 * The `test` every browser test imports. It fails a test on any console error, page error
 * (unhandled exception or rejection) or Content-Security-Policy violation it did not declare
 * with `allowConsoleErrors(pattern)`, and offers `freshServer()` for tests that need a server of
 * their own (a stopped server, another version, a restart).
 */
type CspViolation = {
  directive: string;
  blockedURI: string;
  sourceFile: string;
  /** What the report names: a live element of the page, the document itself, or other. */
  target: 'element' | 'document' | 'other';
};

/**
 * Reports Chromium files while markup is only parsed, never attached: an inline handler or style
 * in a DOMParser / template document (which inherits the page's policy) is refused as the parser
 * meets it, with the page's document as the target. Nothing of it runs or applies.
 */
const INERT_PARSE_DIRECTIVES = ['script-src-attr', 'style-src-attr', 'style-src-elem'];
const isInertParseReport = (v: CspViolation): boolean =>
  v.target === 'document' &&
  v.blockedURI === 'inline' &&
  INERT_PARSE_DIRECTIVES.includes(v.directive);

export type PageWatch = {
  consoleErrors: string[];
  pageErrors: string[];
  cspViolations: CspViolation[];
};

type Fixtures = {
  /** Declares console / page errors this test expects (matched against the message text). */
  allowConsoleErrors: (pattern: RegExp | string) => void;
  /**
   * For a test that feeds hostile markup to the sanitiser: Chromium's reports of inline handlers
   * and styles refused while DOMPurify parses it in an inert document (isInertParseReport) are
   * kept in `cspViolations` but do not fail the test. A report naming a live element still does.
   */
  allowInertParseReports: () => void;
  /** Live list of the Content-Security-Policy violations seen by `page` so far. */
  cspViolations: CspViolation[];
  /** Starts a local server of its own (fresh data folder); stopped after the test. */
  freshServer: (opts?: Partial<StartOptions>) => Promise<RunningServer>;
  /** Attaches the same watch to another page (e.g. of a second context); checked after the test. */
  watchPage: (page: Page) => Promise<PageWatch>;
};

const CSP_BINDING = '__e2eCspViolation';

async function watch(page: Page): Promise<PageWatch> {
  const seen: PageWatch = { consoleErrors: [], pageErrors: [], cspViolations: [] };
  page.on('console', (message) => {
    if (message.type() === 'error') {
      const at = message.location();
      seen.consoleErrors.push(`${message.text()}${at.url ? ` (${at.url}:${at.lineNumber})` : ''}`);
    }
  });
  // An error thrown without frames (a failed dynamic import's rejection) reaches Playwright with
  // an empty stack: its name and message are then what is kept.
  page.on('pageerror', (error) => seen.pageErrors.push(error.stack || String(error)));
  await page.exposeFunction(CSP_BINDING, (violation: CspViolation) => {
    seen.cspViolations.push(violation);
  });
  await page.addInitScript((binding: string) => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as Record<string, (v: unknown) => void>)[binding];
      const { target } = event;
      report?.({
        directive: event.violatedDirective,
        blockedURI: event.blockedURI,
        sourceFile: event.sourceFile,
        target:
          target instanceof Element && target.isConnected
            ? 'element'
            : target === document
              ? 'document'
              : 'other',
      });
    });
  }, CSP_BINDING);
  return seen;
}

function matches(text: string, patterns: (RegExp | string)[]): boolean {
  return patterns.some((p) => (typeof p === 'string' ? text.includes(p) : p.test(text)));
}

function unexpected(
  seen: PageWatch,
  allowed: (RegExp | string)[],
  inertParseAllowed: boolean,
): string[] {
  const problems: string[] = [];
  for (const text of seen.consoleErrors) {
    if (!matches(text, allowed)) problems.push(`console error: ${text}`);
  }
  for (const text of seen.pageErrors) {
    if (!matches(text, allowed)) problems.push(`page error: ${text}`);
  }
  for (const v of seen.cspViolations) {
    if (inertParseAllowed && isInertParseReport(v)) continue;
    problems.push(
      `CSP violation: ${v.directive} blocked ${v.blockedURI || '(inline)'} in ${v.sourceFile}`,
    );
  }
  return problems;
}

const allowedByTest = new WeakMap<object, (RegExp | string)[]>();
const inertParseAllowedByTest = new WeakSet<object>();
const watchesByTest = new WeakMap<object, PageWatch[]>();

export const test = base.extend<Fixtures & { _watch: PageWatch[] }>({
  baseURL: async ({ baseURL }, use) => {
    await use(process.env.E2E_BASE_URL ?? baseURL);
  },
  // Holds this test's allow-list and page watches; checks them after the test body.
  // eslint-disable-next-line no-empty-pattern
  _watch: async ({}, use, testInfo) => {
    const watches: PageWatch[] = [];
    watchesByTest.set(testInfo, watches);
    allowedByTest.set(testInfo, []);
    await use(watches);
    const problems = watches.flatMap((seen) =>
      unexpected(seen, allowedByTest.get(testInfo) ?? [], inertParseAllowedByTest.has(testInfo)),
    );
    if (problems.length > 0 && testInfo.status === testInfo.expectedStatus) {
      throw new Error(`Unexpected browser errors:\n  ${problems.join('\n  ')}`);
    }
  },
  allowConsoleErrors: async ({ _watch }, use, testInfo) => {
    void _watch;
    await use((pattern) => {
      allowedByTest.get(testInfo)?.push(pattern);
    });
  },
  allowInertParseReports: async ({ _watch }, use, testInfo) => {
    void _watch;
    await use(() => {
      inertParseAllowedByTest.add(testInfo);
      // Chromium's console line for each such report.
      allowedByTest
        .get(testInfo)
        ?.push(
          /^(?:Executing inline event handler|Applying inline style) violates the following Content Security Policy directive/,
        );
    });
  },
  watchPage: async ({ _watch }, use) => {
    await use(async (page) => {
      const seen = await watch(page);
      _watch.push(seen);
      return seen;
    });
  },
  page: async ({ page, watchPage }, use, testInfo) => {
    await watchPage(page);
    // A page on Playwright's fake clock reads a fake `performance.now()`, so the key art's probe
    // frame would measure 0 ms and run the live scene in this machine's software WebGL through
    // every fake frame; such a page keeps the poster frame (the scene's chunk refused), as a
    // page whose scene failed to load does. key-art.spec.ts tests the scene on a real clock.
    const install = page.clock.install.bind(page.clock);
    page.clock.install = async (options) => {
      const scene = /\/assets\/scene-[\w-]+\.js/;
      allowedByTest.get(testInfo)?.push(scene);
      await page.route(scene, (route) => route.abort());
      return install(options);
    };
    await use(page);
  },
  cspViolations: async ({ page, _watch }, use) => {
    void page;
    await use(_watch[0]?.cspViolations ?? []);
  },
  freshServer: async ({ page }, use) => {
    const started: RunningServer[] = [];
    await use(async (opts) => {
      const server = await startLocalServer(opts);
      started.push(server);
      return server;
    });
    // The page closes first (its parts still on their way are cancelled, not refused): a server
    // stopped under a loading page would fail them as if the site were broken.
    if (started.length > 0) await page.close().catch(() => {});
    for (const server of started) await server.close();
  },
});

export { expect };
