import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Plugin, type ResolvedConfig } from 'vite';

const NESTED_FLAG = 'SMW_PRERENDER_NESTED';
const ROOT_MARKUP = '<div id="root"></div>';

type ServerEntry = {
  PRERENDERED_PATHS: string[];
  render: (path: string) => Promise<string>;
};

/** dist file of a route: `/` → index.html, `/docs/intro` → docs/intro/index.html. */
export function outputFileOf(outDir: string, path: string): string {
  return path === '/' ? join(outDir, 'index.html') : join(outDir, path.slice(1), 'index.html');
}

/**
 * Pre-renders `/` and every `/docs/*` page into the client build's output: after the client
 * bundle is written, an SSR bundle of src/prerender/entry-server.tsx is built next to it, each
 * route is rendered with react-dom's static prerender, and the HTML goes into the index.html
 * template. `data-prerendered` tells main.tsx which route the markup belongs to, so any other
 * route served this file renders fresh instead of hydrating the wrong page. The display font is
 * preloaded so the first paint can use it.
 */
export function prerenderPlugin(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'smw-prerender',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
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

      const template = readFileSync(join(outDir, 'index.html'), 'utf8');
      if (!template.includes(ROOT_MARKUP)) throw new Error(`index.html lacks ${ROOT_MARKUP}`);
      const font = readdirSync(join(outDir, 'assets')).find((f) =>
        /^playfair-display-latin-700-normal.*\.woff2$/.test(f),
      );
      const preload = font
        ? `<link rel="preload" href="/assets/${font}" as="font" type="font/woff2" crossorigin>`
        : '';
      for (const path of entry.PRERENDERED_PATHS) {
        const html = await entry.render(path);
        const page = template
          .replace('</title>', `</title>\n    ${preload}`)
          .replace(ROOT_MARKUP, `<div id="root" data-prerendered="${path}">${html}</div>`);
        const file = outputFileOf(outDir, path);
        mkdirSync(dirname(file), { recursive: true });
        writeFileSync(file, page);
      }
      rmSync(ssrDir, { recursive: true, force: true });
      config.logger.info(`prerendered ${entry.PRERENDERED_PATHS.length} pages`);
    },
  };
}
