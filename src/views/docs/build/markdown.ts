import MarkdownIt from 'markdown-it';

/**
 * Build-time markdown for docs-content/ (never shipped to the browser): front matter read here,
 * the body rendered by markdown-it with raw HTML off (it comes out as escaped text) and its own
 * link check (no javascript:, vbscript:, file: or data: links), so the page's HTML holds only
 * the markup markdown makes. On top of markdown-it: headings start at h2 (the article title is
 * the page's only h1) and carry an id from their text, table headers are column headers, and
 * links out of the site open in a new tab.
 */

type DocFrontMatter = {
  title: string;
  readMinutes: number;
  order: number;
  section: 'guide' | 'legal';
};

export type CompiledDoc = DocFrontMatter & { id: string; html: string };

const slug = (html: string): string =>
  html
    .toLowerCase()
    .replace(/<[^>]+>/g, '')
    .replace(/&[a-z]+;/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

const md = new MarkdownIt({ html: false, linkify: false, typographer: false });

md.core.ruler.push('smw_headings', (state) => {
  const { tokens } = state;
  for (const [index, token] of tokens.entries()) {
    if (token.type !== 'heading_open') continue;
    const level = Math.max(2, Number(token.tag.slice(1)));
    const content = tokens[index + 1];
    const close = tokens.slice(index).find((t) => t.type === 'heading_close');
    token.tag = `h${level}`;
    if (close) close.tag = token.tag;
    const text = md.renderer.renderInline(content?.children ?? [], md.options, state.env);
    token.attrSet('id', slug(text));
  }
});

md.renderer.rules.th_open = (tokens, index, options, _env, self) => {
  tokens[index]?.attrSet('scope', 'col');
  return self.renderToken(tokens, index, options);
};

md.renderer.rules.link_open = (tokens, index, options, _env, self) => {
  const token = tokens[index];
  if (token && /^https?:/.test(String(token.attrGet('href') ?? ''))) {
    token.attrSet('target', '_blank');
    token.attrSet('rel', 'noopener noreferrer');
  }
  return self.renderToken(tokens, index, options);
};

// A paragraph's lines are one run of text.
md.renderer.rules.softbreak = () => ' ';

function parseFrontMatter(source: string): { meta: DocFrontMatter; body: string } {
  const match = /^---\n([\s\S]*?)\n---\n?/.exec(source);
  if (!match) throw new Error('docs page without front matter');
  const fields = new Map<string, string>();
  for (const line of (match[1] ?? '').split('\n')) {
    const at = line.indexOf(':');
    if (at > 0) fields.set(line.slice(0, at).trim(), line.slice(at + 1).trim());
  }
  const title = fields.get('title');
  const readMinutes = Number(fields.get('readMinutes'));
  const order = Number(fields.get('order'));
  const section = fields.get('section') === 'legal' ? 'legal' : 'guide';
  if (!title || !Number.isInteger(readMinutes) || !Number.isInteger(order)) {
    throw new Error('docs front matter needs title, readMinutes and order');
  }
  return { meta: { title, readMinutes, order, section }, body: source.slice(match[0].length) };
}

/** Markdown body → HTML. */
export function markdownToHtml(body: string): string {
  return md.render(body).trim();
}

export function compileDoc(id: string, source: string): CompiledDoc {
  const { meta, body } = parseFrontMatter(source);
  return { id, ...meta, html: markdownToHtml(body) };
}
