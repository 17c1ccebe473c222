import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Plugin, type ResolvedConfig } from 'vite';
import { INVITE_PAGE_FILE, NOT_FOUND_PAGE_FILE } from '../../contract/site';
import { withMetaPolicy } from '../../server/csp';
import { writeBrotliCopies } from './precompress';
import {
  displaySource,
  firstScreenDisplayText,
  firstScreenFaceCss,
  firstScreenFaceScript,
  makeFirstScreenFace,
} from './firstScreenFace';
import { holdsModule } from './compileHintsPlugin';
import { headTagsOf, INVITE_META, type PageMeta } from '../views/shell/pageMeta';
import { PAGE_PRELOADS_ID } from '../platform/pagePreloads';
import { sessionMachine } from '../../machines/session/session.machine';
import { sessionPlan } from '../../machines/session/session.plan';

const NESTED_FLAG = 'SMW_PRERENDER_NESTED';
const ROOT_MARKUP = '<div id="root"></div>';
/** Where a page's preload lists go: before the head's scripts, which read them. */
const PRELOADS_SLOT = '<!--smw-preloads-->';
const STYLESHEET_LINK = /<link rel="stylesheet"(?: crossorigin)? href="([^"]+\.css)">/g;

const ENTRY_SCRIPT = /\s*<script type="module" crossorigin src="([^"]+)"><\/script>/;
const MODULE_PRELOAD = /\s*<link rel="modulepreload" crossorigin href="([^"]+)">/g;

/**
 * A chunk's dynamic imports with the files each needs first (Vite's `__vite__mapDeps([…])`
 * calls, indices into the chunk's list of files), without `inlined`: the CSS every page carries
 * inline, which a part loaded later would otherwise fetch and apply again.
 */
export function withoutInlinedDeps(code: string, inlined: readonly string[]): string {
  const list = /m\.f\|\|\(m\.f=(\[[^\]]*\])\)/.exec(code)?.[1];
  if (!list) return code;
  const files = JSON.parse(list) as string[];
  const drop = new Set(
    files.flatMap((file, index) =>
      inlined.some((href) => href.endsWith(`/${file}`)) ? [index] : [],
    ),
  );
  if (drop.size === 0) return code;
  return code.replace(
    /__vite__mapDeps\(\[([\d,]*)\]\)/g,
    (_call, indices: string) =>
      `__vite__mapDeps([${indices
        .split(',')
        .filter((index) => index !== '' && !drop.has(Number(index)))
        .join(',')}])`,
  );
}

/**
 * A page with its scripts in the head, where the browser's preload scanner finds them while the
 * markup still arrives: the modules the app's entry imports, then the entry itself (marked
 * `data-app-entry` for the head's boot script to run), then `modules` (a docs page's chunk and
 * article). Every one is a modulepreload: nothing runs before the head's boot script says so.
 * Module scripts never block the first paint (the CSS is inline); starting the session and the
 * downloads with the document is what brings the page into view soonest. The app's second stage
 * is not among them: the head's boot script asks for it after the session's calls (`app`).
 */
export function placeAppCode(html: string, modules: readonly string[] = []): string {
  const entry = ENTRY_SCRIPT.exec(html)?.[1];
  if (!entry) throw new Error('index.html lacks the entry <script type="module">');
  const entryImports = [...html.matchAll(MODULE_PRELOAD)].map((m) => m[1]!);
  const preload = (href: string) => `<link rel="modulepreload" crossorigin href="${href}">`;
  const tags = [
    ...entryImports.map(preload),
    // The app's entry is fetched (and compiled) with the page but run by the head's boot script
    // (src/app/bootInline.ts): at once for a signed-in Home, which it readies the machines for
    // while React downloads; for any other page once the session is known, the main thread
    // free until then for the session's answers and the page's first frames.
    `<link rel="modulepreload" crossorigin href="${entry}" data-app-entry>`,
    ...[...new Set(modules)]
      .filter((href) => href !== entry && !entryImports.includes(href))
      .map(preload),
  ];
  return html
    .replace(ENTRY_SCRIPT, '')
    .replace(MODULE_PRELOAD, '')
    .replace('</head>', `  ${tags.join('\n    ')}\n  </head>`);
}

const IMAGE_PRELOAD = /<link rel="preload" as="image" href="([^"]+)"\/>/g;

/**
 * React writes a preload for each image the page shows at the top of the rendered markup, in
 * the body; in the head, ahead of the scripts, the browser asks for the images first (a few KB
 * that paint the page, before the code that makes it answer taps).
 */
export function hoistImagePreloads(markup: string): { markup: string; head: string[] } {
  const hrefs = [...markup.matchAll(IMAGE_PRELOAD)].map((m) => m[1]!);
  return {
    markup: markup.replace(IMAGE_PRELOAD, ''),
    head: [...new Set(hrefs)].map((href) => `<link rel="preload" as="image" href="${href}">`),
  };
}

/**
 * src/app/bootInline.ts compiled to one minified classic script, for the head of every
 * pre-rendered page (an inline script: no request before the session's first call leaves).
 */
async function buildHeadBoot(config: ResolvedConfig): Promise<string> {
  const result = await build({
    configFile: false,
    root: config.root,
    mode: config.mode,
    envDir: config.envDir,
    logLevel: 'warn',
    // The session chart's order, as data the head walks (machines/session/session.plan.ts).
    define: { __SESSION_PLAN__: JSON.stringify(sessionPlan(sessionMachine)) },
    build: {
      write: false,
      minify: true,
      target: 'es2022',
      copyPublicDir: false,
      lib: {
        entry: resolve(config.root, 'src/app/bootInline.ts'),
        formats: ['iife'],
        name: 'smwHeadBoot',
      },
    },
  });
  const outputs = Array.isArray(result) ? result : [result];
  const chunk = outputs
    .flatMap((o) => ('output' in o ? o.output : []))
    .find((file) => file.type === 'chunk');
  if (!chunk || chunk.type !== 'chunk') throw new Error('the head boot script did not build');
  const code = chunk.code.trim();
  if (code.includes('</')) throw new Error('the head boot script must not contain "</"');
  return code;
}

type ServerEntry = {
  PRERENDERED_PATHS: string[];
  metaOf: (path: string) => PageMeta;
  render: (path: string) => Promise<string>;
};

const TITLE = /<title>[^<]*<\/title>/;
const DESCRIPTION = /<meta\s+name="description"\s+content="[^"]*"\s*\/?>/;

/** The template's title and description replaced by a page's own head tags (pageMeta.ts). */
function withHeadTags(html: string, tags: string): string {
  if (!TITLE.test(html) || !DESCRIPTION.test(html)) {
    throw new Error('index.html lacks the <title> or the description <meta>');
  }
  return html.replace(DESCRIPTION, '').replace(TITLE, tags);
}

/**
 * What the page may fetch ahead of the app, per key: the app's second stage (`app`, fetched by
 * the head's boot script with every page), for a tap held before hydration (its
 * `data-tap-preload` key, read by the tap keeper in index.html) and for a signed-in visitor's
 * home (`signed-in`, read by the head's boot script). A JSON block: never executed, so outside
 * the CSP's script hashes.
 */
function tapPreloadsTag(preloads: Record<string, string[]>): string {
  const json = JSON.stringify(preloads).replace(/</g, '\\u003c');
  return `<script type="application/json" id="${PAGE_PRELOADS_ID}">${json}</script>`;
}

/** The wallet's library as the browser build resolves it (src/wallet/transfer.ts loads it). */
const WEB3_MODULE = '@solana/web3.js/lib/index.browser.esm.js';

/** dist file of a route: `/` → index.html, `/docs/intro` → docs/intro/index.html. */
function outputFileOf(outDir: string, path: string): string {
  if (path === '/') return join(outDir, 'index.html');
  if (path === '/404') return join(outDir, NOT_FOUND_PAGE_FILE);
  return join(outDir, path.slice(1), 'index.html');
}

/**
 * Pre-renders `/` and every `/docs/*` page into the client build's output: after the client
 * bundle is written, an SSR bundle of src/prerender/entry-server.tsx is built next to it, each
 * route is rendered with react-dom's static prerender, and the HTML goes into the index.html
 * template. `data-prerendered` tells main.tsx which route the markup belongs to, so any other
 * route served this file renders fresh instead of hydrating the wrong page. The body face (16 KB)
 * is preloaded so it usually makes the first paint; the display face is not: with
 * `font-display: optional` both are niceties, and the headings' face must not compete with it.
 */
/**
 * What a static host's pages may connect to besides their own origin: the origins of
 * `VITE_API_URL` and `VITE_WS_URL` and the sources in `VITE_CSP_CONNECT_SRC` (space-separated,
 * e.g. a Solana RPC); null when the API is the site's own (`VITE_API_URL` unset or a path): then
 * the server serving the pages sends the policy as a header.
 */
function staticHostConnectSrc(env: Record<string, string | undefined>): string[] | null {
  const api = env.VITE_API_URL ?? '';
  if (!/^https?:\/\//i.test(api)) return null;
  const origins = [api, env.VITE_WS_URL ?? ''].filter(Boolean).map((url) => new URL(url).origin);
  const extra = (env.VITE_CSP_CONNECT_SRC ?? '').split(/\s+/).filter(Boolean);
  return [...new Set([...origins, ...extra])];
}

/** Every .html file of the build, in every folder. */
function htmlFilesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return htmlFilesUnder(path);
    return entry.name.endsWith('.html') ? [path] : [];
  });
}

export function prerenderPlugin(): Plugin {
  let config: ResolvedConfig;
  /** Files of the lazily loaded docs page: its chunk, its CSS, and each article's chunk. */
  const docsAssets = { css: [] as string[], js: [] as string[], pages: new Map<string, string>() };
  /** The sign-in dialog's chunk, the chunks it imports and its CSS (the `sign-in` preloads). */
  const signInAssets: string[] = [];
  /** The app's second stage (src/app/mount.tsx: React and the views) and the chunks it imports. */
  const stageTwo: string[] = [];
  /** The signed-in home's chunks and their CSS (`signed-in`). */
  const signedInAssets: string[] = [];
  /** The site's own faces (`fonts`: preloaded once this browser has them, src/platform/webFonts.ts). */
  const fontAssets: string[] = [];
  /** The wallet's library and the chunks it imports (`wallet`: src/wallet/transfer.ts). */
  const walletAssets: string[] = [];
  return {
    name: 'smw-prerender',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    generateBundle(_options, bundle) {
      if (config.build.ssr) return;
      /** A chunk's file, every chunk it imports statically (all the way down) and their CSS. */
      const withImports = (fileName: string, into: string[]): void => {
        const chunk = bundle[fileName];
        if (!chunk || chunk.type !== 'chunk' || into.includes(fileName)) return;
        into.push(fileName, ...(chunk.viteMetadata?.importedCss ?? []));
        for (const imported of chunk.imports) withImports(imported, into);
      };
      for (const asset of Object.values(bundle)) {
        if (asset.type === 'asset' && asset.fileName.endsWith('.woff2')) {
          fontAssets.push(asset.fileName);
        }
      }
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk') continue;
        // A part grouped with others (src/prerender/appChunk.ts) is no chunk's facade: each part
        // is found among the modules of the chunk that holds it.
        if (holdsModule(chunk, 'src/views/docs/DocsPage.tsx')) {
          docsAssets.js.push(chunk.fileName);
          docsAssets.css.push(...(chunk.viteMetadata?.importedCss ?? []));
        }
        if (holdsModule(chunk, 'src/app/mount.tsx')) withImports(chunk.fileName, stageTwo);
        if (holdsModule(chunk, 'src/views/signIn/SignInModal.tsx')) {
          withImports(chunk.fileName, signInAssets);
        }
        // The member services' chunk is not among them: the app asks for it once the home has
        // been drawn, and fetched with the page it would share the line with the home's files.
        if (holdsModule(chunk, 'src/views/home/SignedInHome.tsx')) {
          withImports(chunk.fileName, signedInAssets);
        }
        if (holdsModule(chunk, WEB3_MODULE)) withImports(chunk.fileName, walletAssets);
        if (!chunk.facadeModuleId) continue;
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
      const headBoot = await buildHeadBoot(config);
      const entry = (await import(
        pathToFileURL(join(ssrDir, 'entry-server.mjs')).href
      )) as ServerEntry;

      const base = config.base.endsWith('/') ? config.base : `${config.base}/`;
      const styleOf = (file: string): string =>
        `<style>${readFileSync(join(outDir, file), 'utf8').trim()}</style>`;
      // The site's CSS goes into the page itself: no render-blocking request before the first
      // paint (the server's CSP allows each block by its hash).
      // The views' CSS (the app's second stage, src/app/mount.tsx) comes first, the entry's
      // global styles after it: the order one stylesheet had before the app was split in two.
      const built = readFileSync(join(outDir, 'index.html'), 'utf8');
      const linked = [...built.matchAll(STYLESHEET_LINK)].map((m) => m[1]!);
      const stageTwoCss = stageTwo.filter(
        (file) => file.endsWith('.css') && !linked.includes(`${base}${file}`),
      );
      const inlined: string[] = stageTwoCss.map((file) => `${base}${file}`);
      let viewsCss = stageTwoCss.map(styleOf).join('\n    ');
      const template = built.replace(STYLESHEET_LINK, (_link, href: string) => {
        inlined.push(href);
        const styles = [viewsCss, styleOf(href.slice(base.length))].filter(Boolean);
        viewsCss = '';
        return styles.join('\n    ');
      });
      if (!template.includes(ROOT_MARKUP)) throw new Error(`index.html lacks ${ROOT_MARKUP}`);
      // The session's first calls leave with the document: the head's first script, after the
      // list of files it may preload (PRELOADS_SLOT: filled per page below).
      const withBoot = template.replace(
        /<script>/,
        `${PRELOADS_SLOT}<script>${headBoot}</script>\n    <script>`,
      );
      if (withBoot === template) throw new Error('index.html lacks an inline <script> in its head');
      // A docs page is a lazy chunk in the app: its pre-rendered HTML carries the chunk's CSS (no
      // unstyled first paint, no shift when it arrives) and its loader fetches the code that
      // hydrates it with the entry.
      const docsIdOf = (path: string) => /^\/docs\/(.+)$/.exec(path)?.[1];
      const docsModulesOf = (id: string): string[] => {
        const article = docsAssets.pages.get(id);
        return [...docsAssets.js, ...(article ? [article] : [])].map((f) => `${base}${f}`);
      };
      // Every page fetches the app's second stage with its document (the `app` preloads, asked for
      // by the head's boot script right after the session's calls, which go first on the
      // browser's few connections): React and the views download while the entry readies the
      // machines (src/main.tsx).
      const onTemplate = new Set(
        [...template.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!),
      );
      const appModules = [
        ...new Set(stageTwo.filter((file) => file.endsWith('.js')).map((f) => `${base}${f}`)),
      ].filter((href) => !onTemplate.has(href));
      // A Get Access tapped before the app answers fetches the sign-in dialog's code at once (the
      // tap keeper in index.html): the files it needs that the page does not load anyway.
      // The page's own CSS is in it already (inlined above): never fetched again.
      const pageFiles = new Set([...onTemplate, ...inlined, ...appModules]);
      const notOnPage = (files: string[]) =>
        [...new Set(files)].map((file) => `${base}${file}`).filter((href) => !pageFiles.has(href));
      // With a stored jwt, Home is the signed-in home: the head's boot script fetches its code
      // with the document (src/app/bootInline.ts) instead of after the app's first render.
      const fonts = notOnPage(fontAssets);
      if (walletAssets.length === 0) throw new Error(`no chunk of the build holds ${WEB3_MODULE}`);
      // The wallet's library, fetched ahead (not run) when the Get Ticket tab opens.
      const wallet = notOnPage(walletAssets);
      const tapPreloads = tapPreloadsTag({
        app: appModules,
        'sign-in': notOnPage(signInAssets),
        'signed-in': notOnPage(signedInAssets),
        wallet,
        fonts,
      });
      const docsPreloads = tapPreloadsTag({ app: appModules, wallet, fonts });
      // The landing's first screen in the brand's display face from the first paint: its display
      // text's few glyphs, inline (src/prerender/firstScreenFace.ts).
      const pageCss = [...template.matchAll(/<style>([\s\S]*?)<\/style>/g)]
        .map((m) => m[1]!)
        .join('\n');
      const firstScreenStyle = async (markup: string): Promise<string> => {
        const face = await makeFirstScreenFace(
          displaySource(config.root),
          firstScreenDisplayText(markup, pageCss),
        );
        config.logger.info(
          `first screen's display face: ${face.glyphs.length} glyphs, ${face.woff2.length} bytes (${JSON.stringify(face.glyphs)})` +
            (face.missing ? `; not in the face: ${JSON.stringify(face.missing)}` : ''),
        );
        return `<style>${firstScreenFaceCss()}</style><script>${firstScreenFaceScript(face.woff2)}</script>`;
      };
      // Link previews need absolute addresses: SITE_URL (the deployment's origin) at build time.
      const siteUrl = process.env.SITE_URL ?? '';
      for (const path of entry.PRERENDERED_PATHS) {
        const rendered = hoistImagePreloads(await entry.render(path));
        const html = rendered.markup;
        const docsId = docsIdOf(path);
        const head = [
          ...rendered.head,
          ...(docsId ? docsAssets.css.map(styleOf) : []),
          ...(path === '/' ? [await firstScreenStyle(html)] : []),
        ].join('\n    ');
        const pageOf = (meta: PageMeta, url: string) =>
          placeAppCode(
            withHeadTags(
              withBoot.replace(PRELOADS_SLOT, `${docsId ? docsPreloads : tapPreloads}\n    `),
              headTagsOf(meta, url, siteUrl),
            )
              .replace('</head>', head ? `  ${head}\n  </head>` : '</head>')
              .replace(ROOT_MARKUP, `<div id="root" data-prerendered="${path}">${html}</div>`),
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
      for (const file of readdirSync(join(outDir, 'assets'))) {
        if (!file.endsWith('.js')) continue;
        const path = join(outDir, 'assets', file);
        const code = readFileSync(path, 'utf8');
        const rewritten = withoutInlinedDeps(code, inlined);
        if (rewritten !== code) writeFileSync(path, rewritten);
      }
      // A build for a static host (the API on another origin): each page carries its policy
      // itself, as no header will (docs/operations.md, "The site on a static host").
      const apiHosts = staticHostConnectSrc(process.env);
      if (apiHosts) {
        const pages = htmlFilesUnder(outDir);
        for (const page of pages)
          writeFileSync(page, withMetaPolicy(readFileSync(page, 'utf8'), apiHosts));
        config.logger.info(`wrote the CSP into ${pages.length} pages (static host)`);
        // Netlify's and Cloudflare Pages' rules: an invite link is the invite page (status 200);
        // a host without rules answers its 404.html, which runs the same app (README).
        writeFileSync(
          join(outDir, '_redirects'),
          `/r/*    /${INVITE_PAGE_FILE}  200\n/ref/*  /${INVITE_PAGE_FILE}  200\n`,
        );
      }
      // The site's files are final: each text file gets its Brotli copy for the server to send.
      config.logger.info(`compressed ${await writeBrotliCopies(outDir)} files (Brotli)`);
    },
  };
}
