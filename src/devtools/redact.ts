import { plainValue } from './recording';

/**
 * What the visualiser shows of an event or a context, with the player's secrets taken out: the
 * jwt, the refresh token and the session token (fields of those names, in camelCase or snake_case,
 * and any field named `token`, `session` or `authorization` holding text), and anything anywhere
 * that reads like a JWT (`eyJ…`, three dot-separated base64url parts). A machine handed over in
 * an event (the app's member services) is named, not printed. "Save as test" still writes the
 * values as they were: a replay needs them.
 */
export const REDACTED = '[redacted]';

const SECRET_FIELD =
  /^(?:jwt|token|session|authorization|(?:refresh|session|access|id)_?token|bearer)$/i;
const JWT_TEXT = /eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g;
const BEARER_TEXT = /(Bearer\s+)\S+/gi;

function isMachineLike(v: object): v is { id?: unknown } {
  return 'config' in v && 'root' in v && 'definition' in v;
}

/** Text with every JWT in it replaced. */
export function redactText(text: string): string {
  return text.replace(JWT_TEXT, `${REDACTED} jwt`).replace(BEARER_TEXT, `$1${REDACTED}`);
}

/** A value as JSON carries it (see plainValue), secrets replaced, machines named. */
export function redactValue(value: unknown): unknown {
  const machinesNamed = walk(value, (v) =>
    v && typeof v === 'object' && !Array.isArray(v) && isMachineLike(v)
      ? `[machine ${String(v.id)}]`
      : undefined,
  );
  return walkPlain(plainValue(machinesNamed));
}

/** Replaces, before JSON, what `replace` names (undefined: keep it, and walk inside it). */
function walk(value: unknown, replace: (v: unknown) => string | undefined): unknown {
  const seen = new WeakSet<object>();
  const go = (v: unknown): unknown => {
    const replaced = replace(v);
    if (replaced !== undefined) return replaced;
    if (!v || typeof v !== 'object') return v;
    if (seen.has(v) || ('sessionId' in v && 'send' in v)) return v;
    seen.add(v);
    if (Array.isArray(v)) return v.map(go);
    const proto: unknown = Object.getPrototypeOf(v);
    if (proto !== Object.prototype && proto !== null) return v;
    return Object.fromEntries(Object.entries(v).map(([k, inner]) => [k, go(inner)]));
  };
  return go(value);
}

function walkPlain(value: unknown): unknown {
  if (typeof value === 'string') return redactText(value);
  if (Array.isArray(value)) return value.map(walkPlain);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [
        key,
        SECRET_FIELD.test(key) && typeof inner === 'string' && inner !== ''
          ? REDACTED
          : walkPlain(inner),
      ]),
    );
  }
  return value;
}

/** JSON of a value for display, secrets redacted, cut at `max` characters. */
export function showRedacted(value: unknown, max = 4000, indent = 2): string {
  const text = value === undefined ? 'undefined' : JSON.stringify(redactValue(value), null, indent);
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
