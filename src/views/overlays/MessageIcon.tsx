/**
 * The mark of each message type (toast and information banner): a shape and a glyph as well as a
 * colour, so the type reads without colour too. `load` shows the spinner instead; `default`
 * nothing. Decorative: the message text says what happened.
 */
const GLYPHS: Partial<Record<string, string>> = {
  success: '✓',
  error: '!',
  warning: '▲',
  info: 'i',
};

export function MessageIcon({ type }: { type: string }) {
  const glyph = GLYPHS[type];
  if (!glyph) return null;
  return (
    // The glyph is drawn by CSS (attr()), so the message's text is only its own.
    <span className={`msg-icon msg-icon--${type}`} data-glyph={glyph} aria-hidden="true" />
  );
}
