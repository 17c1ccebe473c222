import { plainValue } from './recording';

/**
 * What the visualiser shows of an event or a context, with the player's secrets taken out: the
 * jwt, the refresh token and the session token (fields of those names, in camelCase or snake_case,
 * and any field named `token`, `session` or `authorization` holding text), and anything anywhere
 * that reads like a JWT (`eyJ…`, three dot-separated base64url parts). A machine handed over in
 * an event (the app's member services) is named, not printed. "Save as test" writes each secret
 * as a placeholder of its own (`withPlaceholders`), the same one wherever the secret stood, so a
 * replay compares as the site did and the file holds no token.
 */
export const REDACTED = '[redacted]';

const SECRET_FIELD =
  /^(?:jwt|token|session|authorization|(?:refresh|session|access|id)_?token|bearer)$/i;
const JWT_TEXT = /eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g;
const BEARER_TEXT = /(Bearer\s+)\S+/gi;

/**
 * A machine or one of its state nodes as JSON carries it (its definition, or its own fields):
 * named by its id instead of printed whole.
 */
function machineName(v: Record<string, unknown>): string | undefined {
  const id = String(v.id);
  // A machine's or a state node's definition (what their toJSON gives).
  if ('key' in v && 'states' in v && 'on' in v && 'transitions' in v) {
    return id.includes('.') ? `[state node ${id}]` : `[machine ${id}]`;
  }
  if (!('config' in v)) return undefined;
  if ('root' in v && 'implementations' in v) return `[machine ${id}]`;
  if ('key' in v && 'states' in v) return `[state node ${id}]`;
  return undefined;
}

/** Text with every JWT in it replaced. */
function redactText(text: string): string {
  return text.replace(JWT_TEXT, `${REDACTED} jwt`).replace(BEARER_TEXT, `$1${REDACTED}`);
}

/** A value as JSON carries it (see plainValue), secrets replaced, machines named. */
export function redactValue(value: unknown): unknown {
  return walkPlain(plainValue(value));
}

function walkPlain(value: unknown): unknown {
  if (typeof value === 'string') return redactText(value);
  if (Array.isArray(value)) return value.map(walkPlain);
  if (value && typeof value === 'object') {
    const named = machineName(value as Record<string, unknown>);
    if (named) return named;
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

/** The shortest text taken for a secret (shorter values are flags, not tokens). */
const MIN_SECRET = 8;

/**
 * A value with every secret in it (the strings of secret fields, anything that reads like a JWT)
 * replaced by a placeholder: `[jwt 1]`, `[refreshToken 1]`, `[sessionToken 1]`. One secret gets
 * one placeholder wherever it stands (in another field, inside a longer text), through the whole
 * value, so what was equal stays equal and what differed still differs.
 */
export function withPlaceholders<T>(value: T): T {
  const secrets = new Map<string, string>();
  const counts = new Map<string, number>();
  const name = (secret: string, kind: string) => {
    if (secret.length < MIN_SECRET || secrets.has(secret)) return;
    const n = (counts.get(kind) ?? 0) + 1;
    counts.set(kind, n);
    secrets.set(secret, `[${kind} ${n}]`);
  };
  const collect = (v: unknown, key: string | null) => {
    if (typeof v === 'string') {
      for (const jwt of v.match(JWT_TEXT) ?? []) name(jwt, 'jwt');
      if (key !== null && SECRET_FIELD.test(key)) name(v, key);
    } else if (Array.isArray(v)) {
      for (const inner of v) collect(inner, null);
    } else if (v && typeof v === 'object') {
      for (const [k, inner] of Object.entries(v)) collect(inner, k);
    }
  };
  collect(value, null);
  if (secrets.size === 0) return value;
  const longestFirst = [...secrets.entries()].sort(([a], [b]) => b.length - a.length);
  const replace = (v: unknown): unknown => {
    if (typeof v === 'string') {
      return longestFirst.reduce(
        (text, [secret, placeholder]) => text.split(secret).join(placeholder),
        v,
      );
    }
    if (Array.isArray(v)) return v.map(replace);
    if (v && typeof v === 'object') {
      return Object.fromEntries(Object.entries(v).map(([k, inner]) => [k, replace(inner)]));
    }
    return v;
  };
  return replace(value) as T;
}
