/**
 * A tiny typed schema checker shared by the client and the local server. It keeps the
 * landing bundle small (no schema library) while every answer and request is still checked.
 */
export type Schema<T> = {
  readonly describe: string;
  /** What the schema accepts, as data, so the server can derive its own validator from it. */
  readonly def: SchemaDef;
  check(value: unknown, path: string): T;
};

export type SchemaDef =
  | { readonly kind: 'string'; readonly min?: number; readonly max?: number }
  | { readonly kind: 'number' | 'boolean' }
  | { readonly kind: 'literal'; readonly value: string | number | boolean }
  | { readonly kind: 'optional'; readonly inner: Schema<unknown> }
  | { readonly kind: 'array'; readonly inner: Schema<unknown>; readonly max: number }
  | { readonly kind: 'object'; readonly shape: Readonly<Record<string, Schema<unknown>>> };

export type Infer<S> = S extends Schema<infer T> ? T : never;

export class SchemaError extends Error {
  constructor(
    message: string,
    readonly path: string,
  ) {
    super(message);
    this.name = 'SchemaError';
  }
}

function fail(path: string, expected: string, value: unknown): never {
  const got = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
  throw new SchemaError(`${path || 'value'}: expected ${expected}, got ${got}`, path);
}

export const str = (opts: { max?: number; min?: number } = {}): Schema<string> => ({
  describe: 'string',
  def: { kind: 'string', ...opts },
  check(value, path) {
    if (typeof value !== 'string') fail(path, 'string', value);
    if (opts.max !== undefined && value.length > opts.max)
      throw new SchemaError(`${path}: longer than ${opts.max} characters`, path);
    if (opts.min !== undefined && value.length < opts.min)
      throw new SchemaError(`${path}: shorter than ${opts.min} characters`, path);
    return value;
  },
});

export const num = (): Schema<number> => ({
  describe: 'number',
  def: { kind: 'number' },
  check(value, path) {
    if (typeof value !== 'number' || !Number.isFinite(value)) fail(path, 'number', value);
    return value;
  },
});

export const bool = (): Schema<boolean> => ({
  describe: 'boolean',
  def: { kind: 'boolean' },
  check(value, path) {
    if (typeof value !== 'boolean') fail(path, 'boolean', value);
    return value;
  },
});

export const literal = <const T extends string | number | boolean>(lit: T): Schema<T> => ({
  describe: JSON.stringify(lit),
  def: { kind: 'literal', value: lit },
  check(value, path) {
    if (value !== lit) fail(path, JSON.stringify(lit), value);
    return lit;
  },
});

export const optional = <T>(inner: Schema<T>): Schema<T | undefined> => ({
  describe: `${inner.describe}?`,
  def: { kind: 'optional', inner },
  check(value, path) {
    return value === undefined || value === null ? undefined : inner.check(value, path);
  },
});

export const array = <T>(inner: Schema<T>, max = 10_000): Schema<T[]> => ({
  describe: `${inner.describe}[]`,
  def: { kind: 'array', inner, max },
  check(value, path) {
    if (!Array.isArray(value)) fail(path, 'array', value);
    if (value.length > max) throw new SchemaError(`${path}: more than ${max} items`, path);
    return value.map((item, i) => inner.check(item, `${path}[${i}]`));
  },
});

type Shape = Record<string, Schema<unknown>>;
type OptionalKeys<S extends Shape> = {
  [K in keyof S]: undefined extends Infer<S[K]> ? K : never;
}[keyof S];
type ObjectOf<S extends Shape> = {
  [K in Exclude<keyof S, OptionalKeys<S>>]: Infer<S[K]>;
} & { [K in OptionalKeys<S>]?: Infer<S[K]> };
type Flatten<T> = { [K in keyof T]: T[K] };

/** An object with at least these keys; unknown extra keys are dropped. */
export const object = <S extends Shape>(shape: S): Schema<Flatten<ObjectOf<S>>> => ({
  describe: 'object',
  def: { kind: 'object', shape },
  check(value, path) {
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      fail(path, 'object', value);
    const source = value as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(shape)) {
      const checked = shape[key]!.check(source[key], path ? `${path}.${key}` : key);
      if (checked !== undefined) out[key] = checked;
    }
    return out as Flatten<ObjectOf<S>>;
  },
});

/** Parse unknown input against a schema; errors as values for boundaries. */
export function parse<T>(
  schema: Schema<T>,
  value: unknown,
): { ok: true; value: T } | { ok: false; error: string } {
  try {
    return { ok: true, value: schema.check(value, '') };
  } catch (error) {
    if (error instanceof SchemaError) return { ok: false, error: error.message };
    throw error;
  }
}
