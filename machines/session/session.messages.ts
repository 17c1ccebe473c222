/**
 * Fixed texts of the spec (§8) that the session bootstrap sets as the application error, and the
 * API version it requires; written once in contract/ for the client, the server and the machines.
 */
export { SESSION_MESSAGES } from '../../contract/messages';
