/** Fixed token texts of the spec (§6, §8), written once in contract/messages.ts. */
export { AUTH_MESSAGES } from '../../contract/messages';
