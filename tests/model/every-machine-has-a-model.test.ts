import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, it } from 'vitest';

/** Every machine folder (one with a <name>.machine.ts) has its generated path test. */
const root = resolve(import.meta.dirname, '../..');

it('every machine in machines/ has a model test tests/model/<name>.paths.test.ts(x)', () => {
  const machines = readdirSync(join(root, 'machines'), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .filter((name) => existsSync(join(root, 'machines', name, `${name}.machine.ts`)));
  const missing = machines.filter(
    (name) =>
      !existsSync(join(root, 'tests/model', `${name}.paths.test.ts`)) &&
      !existsSync(join(root, 'tests/model', `${name}.paths.test.tsx`)),
  );
  expect(machines.length).toBeGreaterThan(0);
  expect(missing, `machines without a model test: ${missing.join(', ')}`).toEqual([]);
});
