/**
 * Build-time markdown compiler for docs-content/ (never shipped to the browser). It handles the
 * subset the guides are written in: front matter, headings, paragraphs, ordered and unordered
 * lists, tables, emphasis, strong, inline code and links. Everything else is escaped text.
 */

export type DocFrontMatter = {
  title: string;
  readMinutes: number;
  order: number;
  section: 'guide' | 'legal';
};

export type CompiledDoc = DocFrontMatter & { id: string; html: string };

const escapeHtml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const slug = (text: string): string =>
  text
    .toLowerCase()
    .replace(/<[^>]+>/g, '')
    .replace(/&[a-z]+;/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/** Inline markup on already-escaped text: code first so its content is left alone. */
export function inline(source: string): string {
  const codes: string[] = [];
  let text = escapeHtml(source).replace(/`([^`]+)`/g, (_, code: string) => {
    codes.push(`<code>${code}</code>`);
    return `\uE000${codes.length - 1}\uE000`;
  });
  text = text
    .replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, (_, label: string, href: string) => {
      const external = /^https?:/.test(href);
      const attrs = external ? ' target="_blank" rel="noopener noreferrer"' : '';
      return `<a href="${href}"${attrs}>${label}</a>`;
    })
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
    .replace(/(^|[^*])\*([^*\s][^*]*)\*/g, '$1<em>$2</em>');
  return text.replace(/\uE000(\d+)\uE000/g, (_, i: string) => codes[Number(i)] ?? '');
}

export function parseFrontMatter(source: string): { meta: DocFrontMatter; body: string } {
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

const isTableRow = (line: string) => /^\|.*\|\s*$/.test(line);
const cells = (line: string) =>
  line
    .trim()
    .replace(/^\||\|$/g, '')
    .split('|')
    .map((c) => c.trim());

/** Markdown body → HTML. */
export function markdownToHtml(body: string): string {
  const lines = body.replace(/\r\n/g, '\n').split('\n');
  const out: string[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] ?? '';
    if (line.trim() === '') {
      i += 1;
      continue;
    }
    const heading = /^(#{1,4})\s+(.*)$/.exec(line);
    if (heading) {
      // The article title is the page's only h1: the pages start their sections at `##`.
      const level = Math.max(2, (heading[1] ?? '#').length);
      const content = inline(heading[2] ?? '');
      out.push(`<h${level} id="${slug(content)}">${content}</h${level}>`);
      i += 1;
      continue;
    }
    if (isTableRow(line)) {
      const rows: string[] = [];
      while (i < lines.length && isTableRow(lines[i] ?? '')) rows.push(lines[i++] ?? '');
      const [head, , ...rest] = rows;
      const th = cells(head ?? '')
        .map((c) => `<th scope="col">${inline(c)}</th>`)
        .join('');
      const tr = rest
        .map(
          (r) =>
            `<tr>${cells(r)
              .map((c) => `<td>${inline(c)}</td>`)
              .join('')}</tr>`,
        )
        .join('');
      out.push(`<table><thead><tr>${th}</tr></thead><tbody>${tr}</tbody></table>`);
      continue;
    }
    const listItem = /^(\s*)([-*]|\d+\.)\s+(.*)$/;
    const first = listItem.exec(line);
    if (first) {
      const ordered = /\d/.test(first[2] ?? '');
      const items: string[] = [];
      while (i < lines.length) {
        const current = lines[i] ?? '';
        const item = listItem.exec(current);
        if (item) {
          items.push(item[3] ?? '');
        } else if (/^\s+\S/.test(current) && items.length > 0) {
          items[items.length - 1] += ` ${current.trim()}`;
        } else {
          break;
        }
        i += 1;
      }
      const tag = ordered ? 'ol' : 'ul';
      out.push(`<${tag}>${items.map((it) => `<li>${inline(it)}</li>`).join('')}</${tag}>`);
      continue;
    }
    const paragraph: string[] = [];
    while (i < lines.length) {
      const current = lines[i] ?? '';
      if (
        current.trim() === '' ||
        /^#{1,4}\s/.test(current) ||
        /^\s*([-*]|\d+\.)\s+/.test(current) ||
        isTableRow(current)
      ) {
        break;
      }
      paragraph.push(current.trim());
      i += 1;
    }
    out.push(`<p>${inline(paragraph.join(' '))}</p>`);
  }
  return out.join('\n');
}

export function compileDoc(id: string, source: string): CompiledDoc {
  const { meta, body } = parseFrontMatter(source);
  return { id, ...meta, html: markdownToHtml(body) };
}
