import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SIGN_IN_CODE_LENGTH } from '../../contract/spec';

/**
 * Each fact once (docs/layout.md): what the site, the machines and the server share is defined in
 * contract/ and imported where used, under its own name. A second definition is caught here: a
 * declaration with a contract export's name, a contract export imported or re-exported under
 * another name, a contract constant aliased (`const X = CONTRACT_NAME`), or one of the
 * contract's own patterns (the code's digits, the invite-code cleaner) written again by hand.
 */
const ROOT = resolve(import.meta.dirname, '../..');

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return filesUnder(path);
    return /\.(ts|tsx)$/.test(name) && !/\.d\.ts$/.test(name) ? [path] : [];
  });
}

const contractFiles = filesUnder(join(ROOT, 'contract'));
const productFiles = ['src', 'machines', 'server'].flatMap((dir) => filesUnder(join(ROOT, dir)));

/**
 * The names contract/ exports as values (constants and functions); a one-word name (`parse`) is
 * too common to mean the same fact where another file uses it.
 */
const contractNames = new Set(
  contractFiles
    .flatMap((file) =>
      [
        ...readFileSync(file, 'utf8').matchAll(/^export (?:const|function|async function) (\w+)/gm),
      ].map((m) => m[1]!),
    )
    .filter((name) => /[A-Z_]/.test(name)),
);

/** The character classes contract/'s functions clean text with: the shapes it owns. */
const contractPatterns = contractFiles.flatMap((file) =>
  [...readFileSync(file, 'utf8').matchAll(/\.replace\((\/\[(?:\\.|[^/\n])+\/)/g)].map((m) => m[1]!),
);

function secondDefinitions(where: string, text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/\b(?:const|let|var|function|class)\s+(\w+)/g))
    if (contractNames.has(m[1]!)) found.push(`${where}: defines ${m[1]} again`);
  for (const m of text.matchAll(/\b(\w+)\s+as\s+(\w+)/g))
    if (contractNames.has(m[1]!) && m[1] !== m[2])
      found.push(`${where}: renames ${m[1]} to ${m[2]}`);
  for (const m of text.matchAll(/\b(?:const|let)\s+(\w+)\s*(?::[^=]+)?=\s*(\w+);/g))
    if (contractNames.has(m[2]!)) found.push(`${where}: aliases ${m[2]} as ${m[1]}`);
  if (text.includes(`\\d{${SIGN_IN_CODE_LENGTH}}`))
    found.push(`${where}: writes the code's digits by hand (SIGN_IN_CODE_SHAPE)`);
  for (const pattern of contractPatterns)
    if (text.includes(pattern)) found.push(`${where}: writes the contract's ${pattern} again`);
  return found;
}

describe('each fact once', () => {
  it('finds the facts it guards (the walk itself works)', () => {
    expect(contractNames).toContain('SIGN_IN_CODE_LENGTH');
    expect(contractNames).toContain('sanitizeInviteCode');
    expect(contractPatterns).toContain('/[^A-Za-z0-9]/');
    expect(productFiles.some((file) => file.endsWith('server/routes/auth.ts'))).toBe(true);
  });

  it('no site, machine or server file defines, renames or rewrites a contract fact', () => {
    const found = productFiles.flatMap((file) =>
      secondDefinitions(relative(ROOT, file), readFileSync(file, 'utf8')),
    );
    expect(found).toEqual([]);
  });

  it('catches a fact written twice', () => {
    const text = [
      'const SIGN_IN_CODE_LENGTH = 6;',
      "export { RESEND_SECONDS as RESEND } from '../contract/spec';",
      'const CODE_LENGTH = SIGN_IN_CODE_LENGTH;',
      'const ok = /^\\d{6}$/.test(code);',
      "const clean = raw.replace(/[^A-Za-z0-9]/g, '');",
    ].join('\n');
    expect(secondDefinitions('example.ts', text)).toEqual([
      'example.ts: defines SIGN_IN_CODE_LENGTH again',
      'example.ts: renames RESEND_SECONDS to RESEND',
      'example.ts: aliases SIGN_IN_CODE_LENGTH as CODE_LENGTH',
      "example.ts: writes the code's digits by hand (SIGN_IN_CODE_SHAPE)",
      "example.ts: writes the contract's /[^A-Za-z0-9]/ again",
    ]);
  });
});
