import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Plugin, type ResolvedConfig } from 'vite';
import { INVITE_PAGE_FILE, NOT_FOUND_PAGE_FILE } from '../../contract/site';
import { headTagsOf, INVITE_META, type PageMeta } from '../views/shell/pageMeta';

const NESTED_FLAG = 'SMW_PRERENDER_NESTED';
const ROOT_MARKUP = '<div id="root"></div>';
const STYLESHEET_LINK = /<link rel="stylesheet"(?: crossorigin)? href="([^"]+\.css)">/g;

const ENTRY_SCRIPT = /\s*<script type="module" crossorigin src="([^"]+)"><\/script>/;
const MODULE_PRELOAD = /\s*<link rel="modulepreload" crossorigin href="([^"]+)">/g;

/** Longest wait for the first contentful paint before the app's code is fetched anyway. */
export const APP_CODE_LATEST_MS = 1000;

/**
 * Fetches the app's code once the pre-rendered page has painted its first content (the paint
 * timing entry `first-contentful-paint`; at once where paint timing is missing or the page is
 * hidden, and after APP_CODE_LATEST_MS at the latest). The first paint then never shares the
 * connection or the main thread with the scripts, and the largest paint is the page's own
 * markup. The early entry (src/app/earlyApi.ts: the session's first call) runs first, then the
 * app's entry; they and the modules the entry needs are data attributes of the script element,
 * so this text (and its CSP hash) never changes.
 */
export const APP_LOADER = [
  '(function (self) {',
  '  var started = false;',
  '  function start() {',
  '    if (started) return;',
  '    started = true;',
  '    var head = document.head;',
  "    self.getAttribute('data-preload').split(' ').forEach(function (href) {",
  '      if (!href) return;',
  "      var link = document.createElement('link');",
  "      link.rel = 'modulepreload';",
  "      link.crossOrigin = '';",
  '      link.href = href;',
  '      head.appendChild(link);',
  '    });',
  "    [self.getAttribute('data-early'), self.getAttribute('data-entry')].forEach(function (src) {",
  '      if (!src) return;',
  "      var script = document.createElement('script');",
  "      script.type = 'module';",
  "      script.crossOrigin = '';",
  '      script.src = src;',
  '      head.appendChild(script);',
  '    });',
  '  }',
  '  var types = window.PerformanceObserver && PerformanceObserver.supportedEntryTypes;',
  "  if (!types || types.indexOf('paint') < 0 || document.visibilityState === 'hidden') {",
  '    start();',
  '    return;',
  '  }',
  '  new PerformanceObserver(function (list, observer) {',
  '    list.getEntries().forEach(function (entry) {',
  "      if (entry.name !== 'first-contentful-paint') return;",
  '      observer.disconnect();',
  '      start();',
  '    });',
  "  }).observe({ type: 'paint', buffered: true });",
  `  setTimeout(start, ${APP_CODE_LATEST_MS});`,
  '})(document.currentScript);',
].join('\n');

/**
 * A page with its entry script and modulepreloads replaced by APP_LOADER, placed at the end of
 * the body (it runs once the markup is parsed). `modules` are further modules the page needs (a
 * docs page's chunk and article), fetched with the entry's.
 */
export function deferAppCode(
  html: string,
  early?: string,
  modules: readonly string[] = [],
): string {
  const entry = ENTRY_SCRIPT.exec(html)?.[1];
  if (!entry) throw new Error('index.html lacks the entry <script type="module">');
  const preloads = [...[...html.matchAll(MODULE_PRELOAD)].map((m) => m[1]!), ...modules];
  const earlyAttribute = early ? ` data-early="${early}"` : '';
  const loader =
    `<script${earlyAttribute} data-entry="${entry}" data-preload="${preloads.join(' ')}">` +
    `\n${APP_LOADER}\n</script>`;
  return html
    .replace(ENTRY_SCRIPT, '')
    .replace(MODULE_PRELOAD, '')
    .replace('</body>', `  ${loader}\n  </body>`);
}

type ServerEntry = {
  PRERENDERED_PATHS: string[];
  metaOf: (path: string) => PageMeta;
  render: (path: string) => Promise<string>;
};

const TITLE = /<title>[^<]*<\/title>/;
const DESCRIPTION = /<meta\s+name="description"\s+content="[^"]*"\s*\/?>/;

/** The template's title and description replaced by a page's own head tags (pageMeta.ts). */
export function withHeadTags(html: string, tags: string): string {
  if (!TITLE.test(html) || !DESCRIPTION.test(html)) {
    throw new Error('index.html lacks the <title> or the description <meta>');
  }
  return html.replace(DESCRIPTION, '').replace(TITLE, tags);
}

/** dist file of a route: `/` → index.html, `/docs/intro` → docs/intro/index.html. */
export function outputFileOf(outDir: string, path: string): string {
  if (path === '/') return join(outDir, 'index.html');
  if (path === '/404') return join(outDir, NOT_FOUND_PAGE_FILE);
  return join(outDir, path.slice(1), 'index.html');
}

/**
 * Pre-renders `/` and every `/docs/*` page into the client build's output: after the client
 * bundle is written, an SSR bundle of src/prerender/entry-server.tsx is built next to it, each
 * route is rendered with react-dom's static prerender, and the HTML goes into the index.html
 * template. `data-prerendered` tells main.tsx which route the markup belongs to, so any other
 * route served this file renders fresh instead of hydrating the wrong page. The display font is
 * not preloaded: with `font-display: optional` it is a nicety that must not compete with the
 * first paint.
 */
export function prerenderPlugin(): Plugin {
  let config: ResolvedConfig;
  /** Files of the lazily loaded docs page: its chunk, its CSS, and each article's chunk. */
  const docsAssets = { css: [] as string[], js: [] as string[], pages: new Map<string, string>() };
  /** The early entry's file (src/app/earlyApi.ts), run ahead of the app by the page's loader. */
  let earlyEntry: string | undefined;
  return {
    name: 'smw-prerender',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    generateBundle(_options, bundle) {
      if (config.build.ssr) return;
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk' || !chunk.facadeModuleId) continue;
        if (chunk.isEntry && chunk.facadeModuleId.endsWith('src/app/earlyApi.ts')) {
          earlyEntry = chunk.fileName;
        }
        if (chunk.facadeModuleId.endsWith('src/views/docs/DocsPage.tsx')) {
          docsAssets.js.push(chunk.fileName);
          docsAssets.css.push(...(chunk.viteMetadata?.importedCss ?? []));
        }
        const page = /virtual:docs-page\/(.+)$/.exec(chunk.facadeModuleId);
        if (page?.[1]) docsAssets.pages.set(page[1], chunk.fileName);
      }
    },
    async closeBundle() {
      if (config.build.ssr || process.env[NESTED_FLAG]) return;
      const outDir = resolve(config.root, config.build.outDir);
      const ssrDir = resolve(config.root, '.local/prerender');
      process.env[NESTED_FLAG] = '1';
      try {
        await build({
          configFile: config.configFile,
          root: config.root,
          mode: config.mode,
          logLevel: 'warn',
          build: {
            ssr: resolve(config.root, 'src/prerender/entry-server.tsx'),
            outDir: ssrDir,
            emptyOutDir: true,
            copyPublicDir: false,
            rollupOptions: { output: { entryFileNames: 'entry-server.mjs' } },
          },
        });
      } finally {
        delete process.env[NESTED_FLAG];
      }
      const entry = (await import(
        pathToFileURL(join(ssrDir, 'entry-server.mjs')).href
      )) as ServerEntry;

      const base = config.base.endsWith('/') ? config.base : `${config.base}/`;
      const styleOf = (file: string): string =>
        `<style>${readFileSync(join(outDir, file), 'utf8').trim()}</style>`;
      // The site's CSS goes into the page itself: no render-blocking request before the first
      // paint (the server's CSP allows each block by its hash).
      const template = readFileSync(join(outDir, 'index.html'), 'utf8').replace(
        STYLESHEET_LINK,
        (_link, href: string) => styleOf(href.slice(base.length)),
      );
      if (!template.includes(ROOT_MARKUP)) throw new Error(`index.html lacks ${ROOT_MARKUP}`);
      // A docs page is a lazy chunk in the app: its pre-rendered HTML carries the chunk's CSS (no
      // unstyled first paint, no shift when it arrives) and its loader fetches the code that
      // hydrates it with the entry.
      const docsIdOf = (path: string) => /^\/docs\/(.+)$/.exec(path)?.[1];
      const docsModulesOf = (id: string): string[] => {
        const article = docsAssets.pages.get(id);
        return [...docsAssets.js, ...(article ? [article] : [])].map((f) => `${base}${f}`);
      };
      const early = earlyEntry && `${base}${earlyEntry}`;
      // Link previews need absolute addresses: SITE_URL (the deployment's origin) at build time.
      const siteUrl = process.env.SITE_URL ?? '';
      for (const path of entry.PRERENDERED_PATHS) {
        const html = await entry.render(path);
        const docsId = docsIdOf(path);
        const head = docsId ? docsAssets.css.map(styleOf).join('\n    ') : '';
        const pageOf = (meta: PageMeta, url: string) =>
          deferAppCode(
            withHeadTags(template, headTagsOf(meta, url, siteUrl))
              .replace('</head>', head ? `  ${head}\n  </head>` : '</head>')
              .replace(ROOT_MARKUP, `<div id="root" data-prerendered="${path}">${html}</div>`),
            early,
            docsId ? docsModulesOf(docsId) : [],
          );
        const file = outputFileOf(outDir, path);
        mkdirSync(dirname(file), { recursive: true });
        writeFileSync(file, pageOf(entry.metaOf(path), path));
        // An invite link shows Home (after storing its code); its preview says it is an invite.
        if (path === '/') writeFileSync(join(outDir, INVITE_PAGE_FILE), pageOf(INVITE_META, '/'));
      }
      rmSync(ssrDir, { recursive: true, force: true });
      config.logger.info(`prerendered ${entry.PRERENDERED_PATHS.length} pages`);
    },
  };
}
