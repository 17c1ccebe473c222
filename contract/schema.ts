import * as v from 'valibot';

/**
 * The contract's schemas are valibot schemas, read by the client (answers) and by the server
 * (requests and its own answers). These helpers name the few shapes the contract repeats; only
 * valibot's tree-shakeable functions are used, so the landing bundle carries just these.
 */
export type Schema<T> = v.GenericSchema<unknown, T>;
export type Infer<S extends v.GenericSchema> = v.InferOutput<S>;

/** A string of at most `max` characters (any length without one). */
export const str = /* @__NO_SIDE_EFFECTS__ */ (max?: number) =>
  max === undefined ? v.string() : v.pipe(v.string(), v.maxLength(max));

/** A finite number. */
export const num = /* @__NO_SIDE_EFFECTS__ */ () => v.pipe(v.number(), v.finite());

/** At most `max` items of `item`. */
export const array = /* @__NO_SIDE_EFFECTS__ */ <T extends v.GenericSchema>(
  item: T,
  max = 10_000,
) => v.pipe(v.array(item), v.maxLength(max));

/** An optional entry: absent, undefined or null all read as absent. */
export const optional = /* @__NO_SIDE_EFFECTS__ */ <T extends v.GenericSchema>(inner: T) =>
  v.pipe(
    v.nullish(inner),
    v.transform((value): v.InferOutput<T> | undefined => value ?? undefined),
  );

export { boolean as bool, literal, object } from 'valibot';

const kindOf = (value: unknown): string =>
  value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;

type Walkable = {
  expects?: string | null;
  entries?: Record<string, Walkable>;
  item?: Walkable;
  wrapped?: Walkable;
};

/** What a schema expects, in the words of the messages: `string`, `object`, `"ok"`. */
const expectsOf = (schema: Walkable | undefined): string =>
  (schema?.expects ?? 'value').replace(/^\((.*) \| null \| undefined\)$/, '$1').toLowerCase();

/** `data.language: expected string, got number`, for the first issue of a failed parse. */
function describeIssue(root: Walkable, issue: v.BaseIssue<unknown>): string {
  const path = issue.path ?? [];
  const where =
    path
      .map((item, index) =>
        typeof item.key === 'number' ? `[${item.key}]` : `${index ? '.' : ''}${String(item.key)}`,
      )
      .join('') || 'value';
  const requirement = issue.requirement as number;
  if (issue.type === 'max_length')
    return Array.isArray(issue.input)
      ? `${where}: more than ${requirement} items`
      : `${where}: longer than ${requirement} characters`;
  let expected = issue.type === 'finite' ? 'number' : (issue.expected ?? issue.type);
  // A missing key: valibot names the key, the message names what belongs there.
  if (issue.type === 'object' && issue.input === undefined && path.length) {
    let at: Walkable | undefined = root;
    for (const item of path) {
      while (at?.wrapped) at = at.wrapped;
      at = typeof item.key === 'number' ? at?.item : at?.entries?.[String(item.key)];
    }
    expected = expectsOf(at);
  } else if (issue.type !== 'literal') expected = expectsOf({ expects: expected });
  return `${where}: expected ${expected}, got ${kindOf(issue.input)}`;
}

/** Parse unknown input against a schema; errors as values for boundaries. */
export function parse<T>(
  schema: Schema<T>,
  value: unknown,
): { ok: true; value: T } | { ok: false; error: string } {
  const result = v.safeParse(schema, value, { abortEarly: true });
  return result.success
    ? { ok: true, value: result.output }
    : { ok: false, error: describeIssue(schema as Walkable, result.issues[0]) };
}
