import type { FastifyInstance, FastifyReply } from 'fastify';
import { MAX_RPC_BATCH, MAX_RPC_BODY_BYTES } from '../limits';
import type { RpcFacade } from './rpcFacade';

const rpcError = (code: number, message: string) => ({
  jsonrpc: '2.0' as const,
  id: null,
  error: { code, message },
});

const answer = (reply: FastifyReply, status: number, body: unknown): FastifyReply =>
  reply.code(status).header('Cache-Control', 'no-store').send(body);

/**
 * POST /rpc: the local chain's JSON-RPC. A body over the cap gets 413 (with a JSON-RPC error,
 * the connection stays usable), a batch larger than MAX_RPC_BATCH a JSON-RPC error.
 */
export function registerRpcRoute(app: FastifyInstance, facade: RpcFacade): void {
  app.route({
    method: 'POST',
    url: '/rpc',
    bodyLimit: MAX_RPC_BODY_BYTES,
    errorHandler: (error, _req, reply) => {
      const tooLarge = (error as { code?: string }).code === 'FST_ERR_CTP_BODY_TOO_LARGE';
      return tooLarge
        ? answer(
            reply,
            413,
            rpcError(-32600, `Request body too large (limit ${MAX_RPC_BODY_BYTES} bytes)`),
          )
        : answer(reply, 400, rpcError(-32700, 'Parse error'));
    },
    handler: async (req, reply) => {
      // Parsed by the server's JSON parser; bad JSON reaches the error handler above.
      const body: unknown = req.body;
      if (Array.isArray(body) && body.length > MAX_RPC_BATCH)
        return answer(
          reply,
          400,
          rpcError(-32600, `Batch too large (limit ${MAX_RPC_BATCH} calls)`),
        );
      if (typeof body !== 'object' || body === null)
        return answer(reply, 400, rpcError(-32600, 'Invalid request'));
      return answer(reply, 200, facade.handle(body));
    },
  });
}
