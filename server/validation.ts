import * as v from 'valibot';
import type { Schema } from '../contract/schema';

/**
 * The server validates requests and answers with valibot schemas derived from the one contract
 * (contract/api.ts). The site keeps the contract's own tiny checker: valibot in the landing
 * bundle would take it over its 110 KB gzip budget. Both read the same schema definitions, so
 * they accept the same values, and the messages keep the form `path: expected X, got Y`.
 */
type Derived = v.GenericSchema<unknown, unknown>;

const derived = new WeakMap<Schema<unknown>, Derived>();

function derive(schema: Schema<unknown>): Derived {
  const known = derived.get(schema);
  if (known) return known;
  const def = schema.def;
  let out: Derived;
  switch (def.kind) {
    case 'string': {
      const checks: v.PipeItem<string, string, v.BaseIssue<unknown>>[] = [];
      if (def.max !== undefined) checks.push(v.maxLength(def.max));
      if (def.min !== undefined) checks.push(v.minLength(def.min));
      out = v.pipe(v.string(), ...checks);
      break;
    }
    case 'number':
      out = v.pipe(v.number(), v.finite());
      break;
    case 'boolean':
      out = v.boolean();
      break;
    case 'literal':
      out = v.literal(def.value);
      break;
    case 'optional':
      // Like the contract: null reads as absent.
      out = v.pipe(
        v.nullish(derive(def.inner)),
        v.transform((value) => value ?? undefined),
      );
      break;
    case 'array':
      out = v.pipe(v.array(derive(def.inner)), v.maxLength(def.max));
      break;
    case 'object': {
      const entries: Record<string, Derived> = {};
      for (const [key, inner] of Object.entries(def.shape)) entries[key] = derive(inner);
      // Unknown keys are dropped, absent optional keys stay absent.
      out = v.pipe(
        v.object(entries),
        v.transform((value) =>
          Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined)),
        ),
      );
      break;
    }
  }
  derived.set(schema, out);
  return out;
}

const kindOf = (value: unknown): string =>
  value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;

const EXPECTED: Record<string, string> = {
  string: 'string',
  number: 'number',
  finite: 'number',
  boolean: 'boolean',
  object: 'object',
  array: 'array',
};

/** The contract schema at a path of keys (through objects, optionals and arrays). */
function schemaAt(schema: Schema<unknown>, keys: readonly unknown[]): Schema<unknown> | undefined {
  let at: Schema<unknown> | undefined = schema;
  for (const key of keys) {
    while (at?.def.kind === 'optional') at = at.def.inner;
    if (at?.def.kind === 'object' && typeof key === 'string') at = at.def.shape[key];
    else if (at?.def.kind === 'array' && typeof key === 'number') at = at.def.inner;
    else return undefined;
  }
  return at;
}

/** `data.language: expected string, got number` (the contract checker's wording). */
function describeIssue(root: Schema<unknown>, issue: v.BaseIssue<unknown>): string {
  const path = (issue.path ?? [])
    .map((item, index) =>
      typeof item.key === 'number'
        ? `[${item.key}]`
        : `${index === 0 ? '' : '.'}${String(item.key)}`,
    )
    .join('');
  const where = path || 'value';
  if (issue.type === 'max_length') {
    const input = issue.input;
    return Array.isArray(input)
      ? `${where}: more than ${issue.requirement as number} items`
      : `${where}: longer than ${issue.requirement as number} characters`;
  }
  if (issue.type === 'min_length')
    return `${where}: shorter than ${issue.requirement as number} characters`;
  // A missing key: valibot names the key, the contract names what belongs there.
  const missing =
    issue.type === 'object' && issue.input === undefined && (issue.path ?? []).length > 0;
  const expected = missing
    ? (schemaAt(
        root,
        (issue.path ?? []).map((item) => item.key),
      )?.describe ?? 'value')
    : issue.type === 'literal'
      ? issue.expected
      : (EXPECTED[issue.type] ?? issue.type);
  return `${where}: expected ${expected}, got ${kindOf(issue.input)}`;
}

export type Validation<T> = { ok: true; value: T } | { ok: false; error: string };

export function validate<T>(schema: Schema<T>, value: unknown): Validation<T> {
  const result = v.safeParse(derive(schema as Schema<unknown>), value, { abortEarly: true });
  if (result.success) return { ok: true, value: result.output as T };
  return { ok: false, error: describeIssue(schema as Schema<unknown>, result.issues[0]) };
}
