/**
 * A Solana JSON-RPC face on the local chain, served at POST /rpc. It answers the methods the
 * site, web3.js `Connection` and the wallets use, with the same reply shapes and error codes as
 * a real node (-32002 for a failed preflight, -32602 for bad params, -32601 unknown method).
 */
import { getBase58Encoder } from '@solana/kit';
import type { LocalChain } from './localChain';

type RpcRequest = { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: unknown };
type RpcReply =
  | { jsonrpc: '2.0'; id: unknown; result: unknown }
  | { jsonrpc: '2.0'; id: unknown; error: { code: number; message: string; data?: unknown } };

class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

const PUBKEY = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;
const MAX_AIRDROP = 1_000_000_000_000n; // 1000 SOL

export type RpcFacadeOptions = {
  /** Non-standard controls for tests and the development wallet (never in production). */
  testControls?: boolean;
  /**
   * A production rehearsal on the in-process chain (LOCAL_CHAIN=1): `requestAirdrop` answers
   * only a call whose config carries this key (`npm run chain -- airdrop`, which reads it from
   * the data folder); no other call gets free SOL.
   */
  rehearsalKey?: string;
};

/** The method that tells `npm run chain -- airdrop` it talks to this project's local chain. */
export const LOCAL_CHAIN_METHOD = 'smw_localChain';

function param(params: unknown[], index: number): unknown {
  return params[index];
}

function pubkeyParam(params: unknown[], index: number): string {
  const value = param(params, index);
  if (typeof value !== 'string' || !PUBKEY.test(value))
    throw new RpcError(-32602, 'Invalid param: Invalid');
  return value;
}

export function createRpcFacade(chain: LocalChain, options: RpcFacadeOptions = {}) {
  const b58 = getBase58Encoder();
  const context = () => ({ slot: chain.slot(), apiVersion: '2.2.0' });

  const methods: Record<string, (params: unknown[]) => unknown> = {
    getHealth: () => 'ok',
    getVersion: () => ({ 'solana-core': '2.2.0', 'feature-set': 0 }),
    [LOCAL_CHAIN_METHOD]: () => ({ local: true, airdrops: options.testControls ? 'open' : 'key' }),
    getSlot: () => chain.slot(),
    getBlockHeight: () => chain.slot(),
    getLatestBlockhash: () => {
      const { blockhash, lastValidBlockHeight } = chain.latestBlockhash();
      return { context: context(), value: { blockhash, lastValidBlockHeight } };
    },
    getBalance: (params) => ({
      context: context(),
      value: Number(chain.getBalance(pubkeyParam(params, 0))),
    }),
    getMinimumBalanceForRentExemption: (params) => {
      const len = param(params, 0);
      if (typeof len !== 'number' || !Number.isInteger(len) || len < 0 || len > 10_485_760)
        throw new RpcError(-32602, 'Invalid param: data length');
      return Number(chain.minimumBalanceForRentExemption(len));
    },
    getTransactionCount: () => chain.transactionCount(),
    getSignatureStatuses: (params) => {
      const list = param(params, 0);
      if (!Array.isArray(list) || list.length > 256 || !list.every((s) => typeof s === 'string'))
        throw new RpcError(-32602, 'Invalid param: signatures');
      return {
        context: context(),
        value: (list as string[]).map((signature) => {
          const status = chain.signatureStatus(signature);
          return status === null
            ? null
            : {
                slot: status.slot,
                confirmations: null,
                err: status.err,
                status: { Ok: null },
                confirmationStatus: 'finalized',
              };
        }),
      };
    },
    sendTransaction: (params) => {
      const wire = param(params, 0);
      const config = param(params, 1);
      if (typeof wire !== 'string' || wire.length > 4096)
        throw new RpcError(-32602, 'Invalid param: transaction');
      const encoding =
        typeof config === 'object' && config !== null && 'encoding' in config
          ? config.encoding
          : 'base58';
      let bytes: Uint8Array;
      try {
        bytes =
          encoding === 'base64' ? Buffer.from(wire, 'base64') : new Uint8Array(b58.encode(wire));
      } catch {
        throw new RpcError(-32602, 'invalid transaction: failed to decode');
      }
      const result = chain.sendWireTransaction(bytes);
      if (!result.ok)
        throw new RpcError(-32002, `Transaction simulation failed: ${result.message}`, {
          err: result.code,
          logs: result.logs,
        });
      return result.signature;
    },
  };
  // Free SOL and clock controls exist only where tickets are not real: development mode.
  const airdrop = (params: unknown[]) => {
    const to = pubkeyParam(params, 0);
    const amount = param(params, 1);
    if (
      typeof amount !== 'number' ||
      !Number.isSafeInteger(amount) ||
      amount <= 0 ||
      BigInt(amount) > MAX_AIRDROP
    )
      throw new RpcError(-32602, 'Invalid param: lamports');
    const result = chain.airdrop(to, BigInt(amount));
    if (!result.ok) throw new RpcError(-32603, `airdrop failed: ${result.message}`);
    return result.signature;
  };
  if (options.rehearsalKey && !options.testControls) {
    const key = options.rehearsalKey;
    methods.requestAirdrop = (params) => {
      const config = param(params, 2);
      const given =
        typeof config === 'object' && config !== null && 'rehearsalKey' in config
          ? config.rehearsalKey
          : undefined;
      if (given !== key)
        throw new RpcError(
          -32601,
          'Method not found (a rehearsal airdrop needs the key of this data folder: npm run chain -- airdrop)',
        );
      return airdrop(params);
    };
  }
  if (options.testControls) {
    methods.requestAirdrop = airdrop;
    methods.litesvm_expireBlockhash = () => {
      chain.expireBlockhash();
      return chain.latestBlockhash().blockhash;
    };
  }

  function handleOne(request: RpcRequest): RpcReply {
    const id = request.id ?? null;
    try {
      if (typeof request !== 'object' || request === null || typeof request.method !== 'string')
        throw new RpcError(-32600, 'Invalid request');
      const method = Object.hasOwn(methods, request.method) ? methods[request.method] : undefined;
      if (!method) throw new RpcError(-32601, 'Method not found');
      const params = request.params === undefined ? [] : request.params;
      if (!Array.isArray(params)) throw new RpcError(-32602, 'Invalid params');
      return { jsonrpc: '2.0', id, result: method(params) };
    } catch (error) {
      if (error instanceof RpcError)
        return {
          jsonrpc: '2.0',
          id,
          error: {
            code: error.code,
            message: error.message,
            ...(error.data === undefined ? {} : { data: error.data }),
          },
        };
      return { jsonrpc: '2.0', id, error: { code: -32603, message: 'Internal error' } };
    }
  }

  /** Answers a parsed JSON body: one request or a batch. */
  function handle(body: unknown): RpcReply | RpcReply[] {
    if (Array.isArray(body)) return body.slice(0, 100).map((r) => handleOne(r as RpcRequest));
    return handleOne(body as RpcRequest);
  }

  return { handle };
}

export type RpcFacade = ReturnType<typeof createRpcFacade>;
