import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Plugin } from 'vite';
import { compileDoc, type CompiledDoc } from './markdown';

const INDEX_ID = 'virtual:docs-index';
const PAGE_PREFIX = 'virtual:docs-page/';
const RESOLVED = '\0';

/**
 * Compiles docs-content/*.md at build time. `virtual:docs-index` carries every page's front
 * matter and a dynamic import per page; `virtual:docs-page/<id>` is one page's HTML, so each page
 * is its own chunk and the browser never parses markdown.
 */
export function docsPlugin(contentDir: string): Plugin {
  const files = () =>
    readdirSync(contentDir)
      .filter((f) => f.endsWith('.md'))
      .sort();
  const compile = (id: string): CompiledDoc =>
    compileDoc(id, readFileSync(join(contentDir, `${id}.md`), 'utf8'));

  return {
    name: 'smw-docs',
    resolveId(id) {
      if (id === INDEX_ID || id.startsWith(PAGE_PREFIX)) return RESOLVED + id;
      return undefined;
    },
    load(id) {
      if (!id.startsWith(RESOLVED)) return undefined;
      const name = id.slice(RESOLVED.length);
      if (name === INDEX_ID) {
        const docs = files()
          .map((f) => {
            const { html: _html, ...meta } = compile(basename(f, '.md'));
            return meta;
          })
          .sort((a, b) => a.order - b.order);
        for (const f of files()) this.addWatchFile(join(contentDir, f));
        const loaders = docs
          .map(
            (d) =>
              `  ${JSON.stringify(d.id)}: () => import(${JSON.stringify(PAGE_PREFIX + d.id)}),`,
          )
          .join('\n');
        return `export const DOCS = ${JSON.stringify(docs)};\nexport const LOADERS = {\n${loaders}\n};\n`;
      }
      if (name.startsWith(PAGE_PREFIX)) {
        const pageId = name.slice(PAGE_PREFIX.length);
        this.addWatchFile(join(contentDir, `${pageId}.md`));
        return `export default ${JSON.stringify(compile(pageId).html)};\n`;
      }
      return undefined;
    },
  };
}
