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

describe('layers', () => {
  it('finds the imports it walks (the walk itself works)', () => {
    const imports = importsOf(join(ROOT, 'src/views/ticket/GetTicketTab.tsx'));
    expect(imports).toContain('machines/payment/payment.selectors');
    expect(imports).toContain('src/app/phantomLink');
  });

  it('no view imports the wallet or API code', () => {
    expect(violations('src/views', /^src\/(wallet|api)(\/|$)/)).toEqual([]);
  });

  it('the wallet code imports no view', () => {
    expect(violations('src/wallet', /^src\/views(\/|$)/)).toEqual([]);
  });
});
