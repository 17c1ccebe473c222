/**
 * The server's Solana JSON-RPC client. The routes use only this, whether it talks to the local
 * chain's facade on this same server or to a real node named by SOLANA_RPC_URL.
 */
class RpcCallError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'RpcCallError';
  }
}

export type SolanaRpc = {
  getLatestBlockhash(): Promise<{ blockhash: string; lastValidBlockHeight: number }>;
  getBalance(pubkey: string): Promise<bigint>;
  requestAirdrop(pubkey: string, lamports: bigint): Promise<string>;
  getSignatureStatuses(signatures: string[]): Promise<Array<{ slot: number; err: unknown } | null>>;
  sendTransaction(wireBase64: string): Promise<string>;
};

/** One JSON-RPC call: the result, or an RpcCallError (HTTP failure or the node's error). */
export type RpcCaller = <T>(method: string, params: unknown[]) => Promise<T>;

export function createRpcCaller(url: string, options: { timeoutMs?: number } = {}): RpcCaller {
  const timeoutMs = options.timeoutMs ?? 10_000;
  let nextId = 1;

  return async function call<T>(method: string, params: unknown[]): Promise<T> {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!response.ok) throw new RpcCallError(-32000, `RPC ${method}: HTTP ${response.status}`);
    const body = (await response.json()) as {
      result?: T;
      error?: { code?: unknown; message?: unknown; data?: unknown };
    };
    if (body.error) {
      const code = typeof body.error.code === 'number' ? body.error.code : -32603;
      const message = typeof body.error.message === 'string' ? body.error.message : 'RPC error';
      throw new RpcCallError(code, message, body.error.data);
    }
    if (body.result === undefined) throw new RpcCallError(-32603, `RPC ${method}: no result`);
    return body.result;
  };
}

export function createRpcClient(url: string, options: { timeoutMs?: number } = {}): SolanaRpc {
  const call = createRpcCaller(url, options);

  return {
    async getLatestBlockhash() {
      const r = await call<{ value: { blockhash: string; lastValidBlockHeight: number } }>(
        'getLatestBlockhash',
        [{ commitment: 'confirmed' }],
      );
      return { blockhash: r.value.blockhash, lastValidBlockHeight: r.value.lastValidBlockHeight };
    },
    async getBalance(pubkey) {
      const r = await call<{ value: number }>('getBalance', [pubkey, { commitment: 'confirmed' }]);
      return BigInt(r.value);
    },
    requestAirdrop: (pubkey, lamports) =>
      call<string>('requestAirdrop', [pubkey, Number(lamports)]),
    async getSignatureStatuses(signatures) {
      const r = await call<{ value: Array<{ slot: number; err: unknown } | null> }>(
        'getSignatureStatuses',
        [signatures, { searchTransactionHistory: true }],
      );
      return r.value;
    },
    sendTransaction: (wireBase64) =>
      call<string>('sendTransaction', [
        wireBase64,
        { encoding: 'base64', preflightCommitment: 'confirmed' },
      ]),
  };
}
