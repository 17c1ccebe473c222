import { existsSync, readdirSync, readFileSync } from 'node:fs';
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

/**
 * Every module of machines/ loads. A chart is built when its module is imported, so a broken chart
 * (an initial state that does not exist, a missing states object) throws at import: here that is a
 * failing test naming the module, not only a test file that never loads.
 */
const modules = import.meta.glob('../../machines/*/*.ts');

it('every module of machines/ loads, and each machine it exports has its chart', async () => {
  const names = Object.keys(modules).filter((name) => !name.endsWith('.d.ts'));
  expect(names.length).toBeGreaterThan(0);
  for (const name of names) {
    const load = modules[name];
    if (!load) continue;
    const loaded = (await load().catch((error: unknown) => {
      throw new Error(`${name} does not load: ${String(error)}`, { cause: error });
    })) as Record<string, unknown>;
    for (const [exported, value] of Object.entries(loaded)) {
      if (!exported.endsWith('Machine')) continue;
      const machine = value as { id?: unknown; root?: object };
      expect(machine.root, `${name}: ${exported} has a chart`).toBeDefined();
      // The visualiser, docs/machines/<id>.* and the inspector name a machine by its id.
      const folder = /machines\/([^/]+)\//.exec(name)?.[1];
      expect(machine.id, `${name}: ${exported}'s id is its folder's name`).toBe(folder);
    }
  }
});

/**
 * Every machine's model tests keep an expected record of their own, written from the spec and
 * folded from the events (never read from the chart): `withSpecRecord`, or the records auth,
 * sign-in, payment, realtime, the error modal and notifications keep in their drivers.
 */
const RECORDS = [
  /\bwithSpecRecord\(/,
  /\bctx\.expected\b/,
  /\bnewExpected\(/,
  /\bctx\.spec\b/,
  /\bx: expected\(\)/,
  /\bm: expected\b/,
  // payment's driver (tests/support/payment/actorDriver.ts) keeps tests/support/payment/expected.ts.
  /support\/payment\/actorDriver'/,
];

it('every machine checks its paths against an expected record from the spec', () => {
  const machines = readdirSync(join(root, 'machines'), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .filter((name) => existsSync(join(root, 'machines', name, `${name}.machine.ts`)));
  const modelDir = join(root, 'tests/model');
  const without = machines.filter((name) => {
    const files = readdirSync(modelDir).filter((file) => file.startsWith(`${name}.`));
    const text = files.map((file) => readFileSync(join(modelDir, file), 'utf8')).join('\n');
    return !RECORDS.some((record) => record.test(text));
  });
  expect(without, `machines whose paths keep no expected record: ${without.join(', ')}`).toEqual(
    [],
  );
});
