/**
 * Events of the copy-feedback machine: the shared "Copied!" behaviour of every copy button
 * (error details, play wallet address, invite link). §9: copy feedback 2 s.
 *
 * A parent machine invokes or spawns `copyFeedbackMachine` (with `writeClipboard` provided from
 * src/) and forwards `copyFeedback.copy`; the view reads `isCopied` / `hasFailed` from the child.
 */
export type CopyFeedbackEvent =
  /** Intent: write `text` to the clipboard and show "Copied!" for 2 s. */
  { type: 'copyFeedback.copy'; text: string };

/** Input of the provided clipboard actor (`writeClipboard`). */
export type WriteClipboardInput = { text: string };

export type CopyFeedbackContext = {
  /** True after the last clipboard write failed; cleared by the next copy. */
  failed: boolean;
  /** The text of the last copy asked for: what the clipboard write writes. */
  text: string;
};

/** Delay of the "Copied!" label (§9 copy feedback 2 s). */
export const COPY_FEEDBACK_MS = 2_000;

/** Label shown on a copy button while the feedback is on. */
export const COPIED_LABEL = 'Copied!';
