// `npm run machines:export`: every machines/<name>/<name>.machine.ts as docs/machines/<name>.json
// (the machine's definition) and docs/machines/<name>.mmd (Mermaid stateDiagram-v2 with nested
// states and event / guard / delay labels). Run by tsx. With `--check` it writes nothing and
// fails when docs/machines/ is not what the machines would generate.
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AnyStateMachine } from 'xstate';
import { chartToMermaid, machineToChart } from '../src/devtools/graph';

const ROOT = resolve(import.meta.dirname, '..');
const OUT = join(ROOT, 'docs/machines');

function isMachine(value: unknown): value is AnyStateMachine {
  return (
    typeof value === 'object' &&
    value !== null &&
    'root' in value &&
    'definition' in value &&
    'transition' in value
  );
}

const names = readdirSync(join(ROOT, 'machines'), { withFileTypes: true })
  .filter(
    (d) => d.isDirectory() && existsSync(join(ROOT, 'machines', d.name, `${d.name}.machine.ts`)),
  )
  .map((d) => d.name)
  .sort();

const CHECK = process.argv.includes('--check');
const outputs = new Map<string, string>();
const write = (file: string, text: string) => outputs.set(file, text);
const index: string[] = [];
let failed = false;
for (const name of names) {
  const file = join(ROOT, 'machines', name, `${name}.machine.ts`);
  const mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  const machine = isMachine(mod[`${name}Machine`])
    ? (mod[`${name}Machine`] as AnyStateMachine)
    : Object.values(mod).find(isMachine);
  if (!machine) {
    console.error(`machines:export: ${file} exports no machine`);
    failed = true;
    continue;
  }
  const chart = machineToChart(machine);
  write(`${name}.json`, `${JSON.stringify(machine.definition, null, 2)}\n`);
  write(`${name}.mmd`, chartToMermaid(chart));
  index.push(
    `| [${name}](./${name}.mmd) | ${chart.nodes.length - 1} | ${chart.edges.length} | [definition](./${name}.json) |`,
  );
  console.log(
    `machines:export: ${name}: ${chart.nodes.length - 1} states, ${chart.edges.length} transitions`,
  );
}
write(
  'README.md',
  [
    '# Machines (generated)',
    '',
    'Written by `npm run machines:export` from `machines/*/*.machine.ts`; do not edit by hand.',
    'Each `.mmd` is a Mermaid `stateDiagram-v2`; each `.json` is the machine definition.',
    '',
    '| machine | states | transitions | |',
    '|---|---|---|---|',
    ...index,
    '',
  ].join('\n'),
);
if (CHECK) {
  const existing = existsSync(OUT) ? readdirSync(OUT) : [];
  const stale = [
    ...[...outputs].filter(([file, text]) => {
      const path = join(OUT, file);
      return !existsSync(path) || readFileSync(path, 'utf8') !== text;
    }),
  ].map(([file]) => file);
  const extra = existing.filter((file) => !outputs.has(file));
  if (stale.length + extra.length > 0) {
    console.error(
      `machines:export --check: docs/machines is out of date (${[...stale, ...extra].join(', ')}); run npm run machines:export`,
    );
    process.exit(1);
  }
  console.log('machines:export --check: docs/machines is up to date');
} else {
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  for (const [file, text] of outputs) writeFileSync(join(OUT, file), text);
}
if (failed) process.exit(1);
