/**
 * The contract's schemas and their parser, loaded by the API client after the landing's first
 * paint (src/api/client.ts starts the import as the client is created, while the head's session
 * calls are still on the wire): valibot and the schemas stay out of the initial JS.
 */
export { CALLS, errorBodySchema } from '../../contract/api';
export { parse } from '../../contract/schema';
