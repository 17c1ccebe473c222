import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, dirname } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The house's two rules between layers (docs/layout.md): views only draw machine state and send
 * intents, so nothing under src/views imports the wallet or API code; and the wallet code draws
 * nothing, so src/wallet imports nothing under src/views. Walks every import of every file.
 */
const ROOT = resolve(import.meta.dirname, '../..');

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return filesUnder(path);
    return /\.(ts|tsx)$/.test(name) ? [path] : [];
  });
}

/** Every module a file imports (static, dynamic and type imports, re-exports), as a repo path. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [
    ...text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s*['"]([^'"]+)['"]/g),
    ...text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g),
    ...text.matchAll(/(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g),
  ].map((m) => m[1]!);
  return specifiers
    .filter((s) => s.startsWith('.'))
    .map((s) => relative(ROOT, resolve(dirname(file), s)));
}

const violations = (from: string, forbidden: RegExp) =>
  filesUnder(join(ROOT, from)).flatMap((file) =>
    importsOf(file)
      .filter((target) => forbidden.test(target))
      .map((target) => `${relative(ROOT, file)} → ${target}`),
  );

/** The repo file an import names (a folder's index, or the file with its extension). */
function fileOf(target: string): string | null {
  for (const ending of ['', '.ts', '.tsx', '/index.ts', '/index.tsx']) {
    const path = join(ROOT, target + ending);
    if (/\.(ts|tsx)$/.test(path) && statSync(path, { throwIfNoEntry: false })?.isFile())
      return path;
  }
  return null;
}

/**
 * What a view reaches through src/app: the wallet or API modules that any src/app file it
 * imports (or one those import, and so on) brings in, each with the chain of imports that leads
 * there. A view that asks src/app for wallet code still runs it; the walk sees through that.
 */
function reachedThroughApp(view: string, forbidden: RegExp): string[] {
  const found: string[] = [];
  const seen = new Set<string>();
  const walk = (file: string, chain: string[]) => {
    for (const target of importsOf(file)) {
      const next = [...chain, target];
      if (forbidden.test(target)) {
        found.push(next.join(' → '));
        continue;
      }
      if (!/^src\/app(\/|$)/.test(target) || seen.has(target)) continue;
      seen.add(target);
      const path = fileOf(target);
      if (path) walk(path, next);
    }
  };
  walk(view, [relative(ROOT, view)]);
  return found.filter((line) => line.includes(' → src/app'));
}

const WALLET_OR_API = /^src\/(wallet|api)(\/|$)/;

describe('layers', () => {
  it('finds the imports it walks (the walk itself works)', () => {
    const imports = importsOf(join(ROOT, 'src/views/ticket/GetTicketTab.tsx'));
    expect(imports).toContain('machines/payment/payment.selectors');
    expect(imports).toContain('src/app/hooks');
    // The composition root reaches the API client through src/app: the walk sees through it.
    const fromRoot = reachedThroughApp(join(ROOT, 'src/main.tsx'), WALLET_OR_API);
    expect(
      fromRoot.some((chain) => /^src\/main\.tsx → src\/app\/.* → src\/api\//.test(chain)),
    ).toBe(true);
  });

  it('no view imports the wallet or API code', () => {
    expect(violations('src/views', WALLET_OR_API)).toEqual([]);
  });

  it('no view reaches the wallet or API code through src/app', () => {
    const views = filesUnder(join(ROOT, 'src/views'));
    expect(views.flatMap((view) => reachedThroughApp(view, WALLET_OR_API))).toEqual([]);
  });

  it('the wallet code imports no view', () => {
    expect(violations('src/wallet', /^src\/views(\/|$)/)).toEqual([]);
  });
});
