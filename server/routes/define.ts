import { CALLS, type CallName, type RequestOf, type ResponseOf } from '../../contract/api';
import type { Schema } from '../../contract/schema';
import type { ApiRequest, ApiRoute, ServerContext } from '../context';

/**
 * A route for one call of the shared contract: path, protection, request and response schemas
 * all come from contract/api.ts, and the handler's answer is typed by the contract.
 */
export function contractRoute<N extends CallName>(
  name: N,
  handle: (
    ctx: ServerContext,
    req: ApiRequest<RequestOf<N>>,
  ) => ResponseOf<N> | Promise<ResponseOf<N>>,
): ApiRoute<RequestOf<N>> {
  const call = CALLS[name];
  return {
    method: 'POST',
    path: call.path,
    protected: call.protected,
    request: call.request as unknown as Schema<RequestOf<N>>,
    response: call.response as Schema<unknown>,
    handle,
  };
}
