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
