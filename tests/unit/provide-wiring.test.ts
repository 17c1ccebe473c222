import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { expect, it } from 'vitest';

/**
 * The machines meet the browser in one place: every `.provide(` call of the site is under
 * src/app/ (composition root and src/app/provide/). Views only subscribe and send intents.
 * The visualiser's sandbox (src/devtools) is the one exception: it replaces every actor of a
 * chart with an inert stand-in so a developer can step it by hand; it wires nothing.
 */
const root = resolve(import.meta.dirname, '../..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

it('every .provide( of the site lives under src/app/', () => {
  const outside = sources(join(root, 'src'))
    .map((file) => relative(root, file).split('\\').join('/'))
    .filter((file) => !file.startsWith('src/app/') && !file.startsWith('src/devtools/'))
    .filter((file) => /\.provide\(/.test(readFileSync(join(root, file), 'utf8')));
  expect(outside).toEqual([]);
  // The rule is real: the wiring is where it says.
  expect(readFileSync(join(root, 'src/app/provide/payment.ts'), 'utf8')).toMatch(/\.provide\(/);
});
