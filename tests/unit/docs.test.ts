import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileDoc, markdownToHtml } from '../../src/views/docs/build/markdown';
import { GUIDES, LEGAL, neighbours, resolveDoc } from '../../src/views/docs/docsIndex';

const dir = resolve(import.meta.dirname, '../../docs-content');
const source = (id: string) => readFileSync(join(dir, `${id}.md`), 'utf8');
const text = (id: string) =>
  compileDoc(id, source(id))
    .html.replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ');

const READ_MINUTES: Record<string, number> = {
  intro: 2,
  lore: 4,
  info: 3,
  token: 2,
  gang: 4,
  weap: 4,
  prop: 4,
  fight: 5,
  cash: 3,
  terms: 5,
  privacy: 4,
};

describe('docs content', () => {
  it('has the eleven pages with title, read time and order in front matter', () => {
    const ids = readdirSync(dir)
      .filter((f) => f.endsWith('.md'))
      .map((f) => f.replace(/\.md$/, ''))
      .sort();
    expect(ids).toEqual(Object.keys(READ_MINUTES).sort());
    for (const id of ids) {
      const doc = compileDoc(id, source(id));
      expect(doc.title.length, id).toBeGreaterThan(0);
      expect(doc.readMinutes, id).toBe(READ_MINUTES[id]);
    }
    expect(compileDoc('info', source('info')).title).toBe('How To Play');
  });

  it('walks the nine guides in the spec order; legal pages have no previous / next', () => {
    expect(GUIDES.map((d) => d.id)).toEqual([
      'intro',
      'lore',
      'info',
      'token',
      'gang',
      'weap',
      'prop',
      'fight',
      'cash',
    ]);
    expect(LEGAL.map((d) => d.id)).toEqual(['terms', 'privacy']);
    expect(neighbours(resolveDoc('intro'))).toMatchObject({ prev: null, next: { id: 'lore' } });
    expect(neighbours(resolveDoc('cash'))).toMatchObject({ prev: { id: 'fight' }, next: null });
    expect(neighbours(resolveDoc('terms'))).toEqual({ prev: null, next: null });
    expect(neighbours(resolveDoc('privacy'))).toEqual({ prev: null, next: null });
  });

  it('falls back to intro for unknown ids [§2.routes.docs]', () => {
    expect(resolveDoc('nope').id).toBe('intro');
    expect(resolveDoc(undefined).id).toBe('intro');
  });

  it('states the game facts of the spec', () => {
    const token = text('token');
    expect(token).toMatch(/1B/);
    expect(token).toMatch(/No mint/);
    expect(token).toMatch(/no burn/);
    expect(token).toMatch(/50% is allocated to the Fund/);
    expect(token).toMatch(/50% to a liquidity pool/);
    expect(token).toMatch(/developer holds 0%/);
    expect(token).toMatch(/in proportion to their Influence \(IP\)/);
    const fight = text('fight');
    expect(fight).toMatch(/attacker spends 1 Stamina/);
    expect(fight).toMatch(/Equal values give a Draw/);
    expect(fight).toMatch(/50% of the loot goes to the Fund/);
    expect(fight).toMatch(/6 hours cannot be attacked/);
    expect(fight).toMatch(/attack code/);
    expect(fight).toMatch(/Weapons beyond 2 per Gangster are not used in fights/);
    for (const id of ['fight', 'cash']) {
      expect(text(id), id).toMatch(/once per hour/);
      expect(text(id), id).toMatch(/24 hours/);
    }
    expect(text('cash')).toMatch(/negative result is deducted/);
    expect(text('gang')).toMatch(/price of each next Gangster increases/);
    expect(text('weap')).toMatch(/always contains 2 Weapons/);
  });

  it('legal pages: 18+ eligibility, logs kept about 90 days, updated October 2025', () => {
    expect(text('terms')).toMatch(/18 years of age or older/);
    expect(text('privacy')).toMatch(/about 90 days/);
    for (const id of ['terms', 'privacy']) expect(text(id)).toMatch(/Last updated: October 2025/);
  });
});

describe('markdown compiler', () => {
  /** The HTML without the line breaks markdown-it puts between block tags. */
  const html = (source: string) => markdownToHtml(source).replace(/>\n</g, '><');

  it('renders headings (h2 and below: h1 is the page title), lists, tables and inline markup', () => {
    const out = html(
      '# Top\n\n## Title\n\n### Two *words*\n\nSome **bold** and *em* with `code`.\n\n- one\n- two\n\n1. first\n\n| a | b |\n| --- | --- |\n| 1 | 2 |\n',
    );
    expect(out).toContain('<h2 id="top">Top</h2>');
    expect(out).toContain('<h2 id="title">Title</h2>');
    expect(out).toContain('<h3 id="two-words">Two <em>words</em></h3>');
    expect(out).not.toContain('<h1');
    expect(out).toContain(
      '<p>Some <strong>bold</strong> and <em>em</em> with <code>code</code>.</p>',
    );
    expect(out).toContain('<ul><li>one</li><li>two</li></ul>');
    expect(out).toContain('<ol><li>first</li></ol>');
    expect(out).toContain('<th scope="col">a</th>');
    expect(out).toContain('<td>2</td>');
  });

  it('keeps the lines of a paragraph as one run of text', () => {
    expect(html('one\ntwo')).toBe('<p>one two</p>');
  });

  it('escapes HTML, drops script links and marks external links', () => {
    expect(html('<script>x</script> <img src=x onerror=alert(1)>')).toBe(
      '<p>&lt;script&gt;x&lt;/script&gt; &lt;img src=x onerror=alert(1)&gt;</p>',
    );
    expect(html('[a](javascript:alert(1)) [b](data:text/html,x) [c](vbscript:x)')).not.toMatch(
      /<a /,
    );
    expect(html('[X](https://x.com)')).toBe(
      '<p><a href="https://x.com" target="_blank" rel="noopener noreferrer">X</a></p>',
    );
    expect(html('[Lore](/docs/lore)')).toBe('<p><a href="/docs/lore">Lore</a></p>');
  });
});
