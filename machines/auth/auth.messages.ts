/** Fixed token texts of the spec (§6, §8), written once in contract/messages.ts. */
export { AUTH_MESSAGES } from '../../contract/messages';

/** The banner of a tab whose session another tab ended (its Exit, or its failed renewal). */
export const SIGNED_OUT_ELSEWHERE_TEXT = 'You signed out in another tab.';
