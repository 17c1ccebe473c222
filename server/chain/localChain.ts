/**
 * The local Solana chain: LiteSVM in process. It has no RPC server of its own; rpcFacade.ts
 * puts a JSON-RPC face on it.
 *
 * Crash safety: every executed transaction or airdrop is first recorded in a SQLite journal
 * (`chain.sqlite`: the accounts it wrote, its signature, the slot) before its signature is
 * answered, so nothing the chain has confirmed is lost to a SIGKILL. LiteSVM's full snapshot
 * (`chain.bin`, ~1.4 MB) is written in the background at most once a second (or after
 * CHECKPOINT_EVERY entries): to a temporary file, fsynced, then renamed over the last one, with
 * a header holding the journal position and a SHA-256 of the bytes. Start-up loads the newest
 * snapshot whose checksum holds (the previous one is kept as `chain.bin.prev`) and replays the
 * journal after it; the journal is pruned up to the older of the two snapshots.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { open, rename } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { openSqliteFile, type SqliteFile } from '../store/engine';
import {
  address,
  getBase58Decoder,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
  lamports as toLamports,
  type Address,
  type EncodedAccount,
} from '@solana/kit';
import { FailedTransactionMetadata, LiteSVM, TransactionMetadata } from 'litesvm';

/** Blocks a blockhash stays valid for, as on mainnet (150 slots). */
const BLOCKHASH_VALIDITY = 150;

type ChainResult =
  | { ok: true; signature: string }
  | { ok: false; code: string; message: string; logs: string[]; signature: string | null };

type SignatureStatus = { slot: number; err: string | null } | null;

export type LocalChain = {
  latestBlockhash(): { blockhash: string; lastValidBlockHeight: number; slot: number };
  slot(): number;
  getBalance(pubkey: string): bigint;
  sendWireTransaction(wire: Uint8Array): ChainResult;
  airdrop(pubkey: string, lamports: bigint): ChainResult;
  signatureStatus(signature: string): SignatureStatus;
  minimumBalanceForRentExemption(dataLength: number): bigint;
  /** Transactions sent through sendWireTransaction that executed. */
  transactionCount(): number;
  /** Makes every blockhash handed out so far invalid (a slow approval on a real chain). */
  expireBlockhash(): void;
  /** Writes a snapshot now if anything changed since the last one (tests, shutdown). */
  checkpoint(): Promise<void>;
  /** Writes the last snapshot and closes the journal. */
  close(): Promise<void>;
};

/** A snapshot is written at most this long after the first change it covers. */
const CHECKPOINT_DELAY_MS = 1_000;
/** ... or as soon as the journal holds this many entries after the last snapshot. */
const CHECKPOINT_EVERY = 256;
/** What a transaction the journal could not record answers: it did not land (nothing moved). */
const NOT_RECORDED_MESSAGE =
  'The chain could not record this transaction, so it did not land: nothing was transferred';
/** Signatures remembered for getSignatureStatuses (oldest forgotten first). */
const SIGNATURES_KEPT = 100_000;

const MAGIC = Buffer.from('SMWCHN01');
const HEADER_BYTES = MAGIC.length + 8 + 32;

type StoredAccount = {
  address: string;
  lamports: string;
  data: string;
  executable: boolean;
  owner: string;
  space: string;
};
type JournalRow = { seq: number; slot: number; accounts: string };

const ERROR_MESSAGES: Record<string, string> = {
  BlockhashNotFound: 'Blockhash not found',
  AlreadyProcessed: 'This transaction has already been processed',
  InsufficientFundsForFee: 'Insufficient funds for fee',
  AccountNotFound: 'Attempt to debit an account but found no record of a prior credit.',
  SignatureFailure: 'Transaction did not pass signature verification',
};

function describeFailure(failed: FailedTransactionMetadata): { code: string; message: string } {
  const err = failed.err();
  const code = typeof err === 'number' ? fieldlessName(err) : err.toString();
  const logs = failed.meta().logs();
  if (logs.some((line) => /insufficient lamports/i.test(line)))
    return {
      code,
      message: 'Error processing Instruction 0: custom program error: 0x1 (insufficient funds)',
    };
  return { code, message: ERROR_MESSAGES[code] ?? code };
}

// The fieldless error enum is a const enum in the typings: map its numbers by hand.
const FIELDLESS = [
  'AccountInUse',
  'AccountLoadedTwice',
  'AccountNotFound',
  'ProgramAccountNotFound',
  'InsufficientFundsForFee',
  'InvalidAccountForFee',
  'AlreadyProcessed',
  'BlockhashNotFound',
  'CallChainTooDeep',
  'MissingSignatureForFee',
  'InvalidAccountIndex',
  'SignatureFailure',
  'InvalidProgramForExecution',
  'SanitizeFailure',
];
function fieldlessName(n: number): string {
  return FIELDLESS[n] ?? `TransactionError(${n})`;
}

/** Header (magic, journal position, SHA-256) + LiteSVM bytes. */
function encodeSnapshot(seq: number, bytes: Uint8Array): Buffer {
  const header = Buffer.alloc(HEADER_BYTES);
  MAGIC.copy(header, 0);
  header.writeBigUInt64BE(BigInt(seq), MAGIC.length);
  createHash('sha256')
    .update(bytes)
    .digest()
    .copy(header, MAGIC.length + 8);
  return Buffer.concat([header, bytes]);
}

/** The snapshot in `file` if it is whole (checksum holds), else null. */
function readSnapshot(file: string): { seq: number; svm: LiteSVM } | null {
  if (!existsSync(file)) return null;
  try {
    const buffer = readFileSync(file);
    if (buffer.length < HEADER_BYTES || !buffer.subarray(0, MAGIC.length).equals(MAGIC)) {
      // A snapshot from before the header: raw LiteSVM bytes, journal position 0.
      return { seq: 0, svm: LiteSVM.fromBytes(buffer) };
    }
    const seq = Number(buffer.readBigUInt64BE(MAGIC.length));
    const sum = buffer.subarray(MAGIC.length + 8, HEADER_BYTES);
    const bytes = buffer.subarray(HEADER_BYTES);
    if (!createHash('sha256').update(bytes).digest().equals(sum)) return null;
    return { seq, svm: LiteSVM.fromBytes(bytes) };
  } catch {
    return null;
  }
}

function storeAccount(account: ReturnType<LiteSVM['getAccount']>): StoredAccount {
  if (!account.exists)
    return {
      address: account.address,
      lamports: '0',
      data: '',
      executable: false,
      owner: '11111111111111111111111111111111',
      space: '0',
    };
  return {
    address: account.address,
    lamports: account.lamports.toString(),
    data: Buffer.from(account.data).toString('base64'),
    executable: account.executable,
    owner: account.programAddress,
    space: account.space.toString(),
  };
}

function loadAccount(stored: StoredAccount): EncodedAccount {
  return {
    address: address(stored.address),
    lamports: toLamports(BigInt(stored.lamports)),
    data: new Uint8Array(Buffer.from(stored.data, 'base64')),
    executable: stored.executable,
    programAddress: address(stored.owner),
    space: BigInt(stored.space),
  };
}

async function fsyncDir(dir: string): Promise<void> {
  try {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Some file systems refuse to fsync a folder; the rename is still atomic.
  }
}

type Journal = {
  db: SqliteFile;
  append(
    slot: number,
    accounts: StoredAccount[],
    signature: string | null,
    counts: boolean,
  ): number;
  entriesAfter(seq: number): JournalRow[];
  hasSignature(signature: string): boolean;
  signatureSlot(signature: string): number | undefined;
  transactionCount(): number;
  prune(upToSeq: number): void;
  lastSeq(): number;
};

function openJournal(file: string | undefined): Journal {
  const db = openSqliteFile(file ?? ':memory:');
  if (file) {
    db.pragma('journal_mode = WAL');
    // A confirmed payment must survive a crash of the process and of the machine.
    db.pragma('synchronous = FULL');
  }
  db.exec(`
    CREATE TABLE IF NOT EXISTS journal (seq INTEGER PRIMARY KEY, slot INTEGER NOT NULL,
      accounts TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS signatures (signature TEXT PRIMARY KEY, slot INTEGER NOT NULL,
      seq INTEGER NOT NULL);
    CREATE INDEX IF NOT EXISTS signatures_seq ON signatures(seq);
    CREATE TABLE IF NOT EXISTS counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
  `);
  const insertEntry = db.prepare('INSERT INTO journal (slot, accounts) VALUES (?, ?)');
  const insertSignature = db.prepare(
    'INSERT OR IGNORE INTO signatures (signature, slot, seq) VALUES (?, ?, ?)',
  );
  const bump = db.prepare(
    `INSERT INTO counters (name, value) VALUES ('transactions', 1)
     ON CONFLICT(name) DO UPDATE SET value = value + 1`,
  );
  const counter = db.prepare<[], { value: number }>(
    "SELECT value FROM counters WHERE name = 'transactions'",
  );
  const after = db.prepare<[number], JournalRow>(
    'SELECT seq, slot, accounts FROM journal WHERE seq > ? ORDER BY seq',
  );
  const findSignature = db.prepare<[string], { slot: number }>(
    'SELECT slot FROM signatures WHERE signature = ?',
  );
  const maxSeq = db.prepare<[], { seq: number | null }>('SELECT MAX(seq) AS seq FROM journal');
  const pruneEntries = db.prepare('DELETE FROM journal WHERE seq <= ?');
  const countSignatures = db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM signatures');
  const forgetSignatures = db.prepare(
    `DELETE FROM signatures WHERE signature IN
       (SELECT signature FROM signatures ORDER BY seq LIMIT ?)`,
  );
  let last = maxSeq.get()?.seq ?? 0;
  const append = db.transaction(
    (slot: number, accounts: StoredAccount[], signature: string | null, counts: boolean) => {
      const seq = Number(insertEntry.run(slot, JSON.stringify(accounts)).lastInsertRowid);
      if (signature) insertSignature.run(signature, slot, seq);
      if (counts) bump.run();
      last = seq;
      return seq;
    },
  );
  return {
    db,
    append: (slot, accounts, signature, counts) => append(slot, accounts, signature, counts),
    entriesAfter: (seq) => after.all(seq),
    hasSignature: (signature) => findSignature.get(signature) !== undefined,
    signatureSlot: (signature) => findSignature.get(signature)?.slot,
    transactionCount: () => counter.get()?.value ?? 0,
    prune(upToSeq) {
      pruneEntries.run(upToSeq);
      const extra = (countSignatures.get()?.n ?? 0) - SIGNATURES_KEPT;
      if (extra > 0) forgetSignatures.run(extra);
    },
    lastSeq: () => last,
  };
}

/** Signatures and transaction count from the JSON meta file older versions kept beside chain.bin. */
function importLegacyMeta(metaFile: string, journal: Journal): void {
  if (!existsSync(metaFile)) return;
  try {
    const meta = JSON.parse(readFileSync(metaFile, 'utf8')) as {
      signatures?: Record<string, number>;
      transactionCount?: number;
    };
    const insert = journal.db.prepare(
      'INSERT OR IGNORE INTO signatures (signature, slot, seq) VALUES (?, ?, 0)',
    );
    const count = journal.db.prepare(
      `INSERT INTO counters (name, value) VALUES ('transactions', ?)
       ON CONFLICT(name) DO UPDATE SET value = excluded.value`,
    );
    journal.db.transaction(() => {
      for (const [signature, slot] of Object.entries(meta.signatures ?? {}))
        insert.run(signature, slot);
      count.run(meta.transactionCount ?? 0);
    })();
  } catch {
    // A torn meta file (older versions rewrote it in place): its signatures are lost, the
    // balances are not (they live in the snapshot).
  }
  rmSync(metaFile, { force: true });
}

export function createLocalChain(
  options: { snapshotFile?: string; warn?: (message: string) => void } = {},
): LocalChain {
  const file = options.snapshotFile;
  const warn = options.warn ?? (() => {});
  const prevFile = file ? `${file}.prev` : undefined;
  if (file) mkdirSync(dirname(file), { recursive: true });
  const journal = openJournal(
    file ? join(dirname(file), `${basename(file).replace(/\.bin$/, '')}.sqlite`) : undefined,
  );
  if (file) importLegacyMeta(`${file}.json`, journal);

  // The newest whole snapshot, then every journal entry after it.
  let svm: LiteSVM;
  let snapshotSeq = 0;
  const current = file ? readSnapshot(file) : null;
  const previous = !current && prevFile ? readSnapshot(prevFile) : null;
  if (file && existsSync(file) && !current)
    warn(
      `chain: ${file} is damaged; starting from ${previous ? 'the previous snapshot' : 'the journal'}`,
    );
  const loaded = current ?? previous;
  if (loaded) {
    svm = loaded.svm;
    snapshotSeq = loaded.seq;
  } else {
    svm = new LiteSVM();
  }
  let replayedSlot = 0;
  for (const entry of journal.entriesAfter(snapshotSeq)) {
    for (const stored of JSON.parse(entry.accounts) as StoredAccount[])
      svm.setAccount(loadAccount(stored));
    replayedSlot = Math.max(replayedSlot, entry.slot);
  }
  if (BigInt(replayedSlot) >= svm.getClock().slot) svm.warpToSlot(BigInt(replayedSlot) + 1n);

  const b58 = getBase58Decoder();
  const txDecoder = getTransactionDecoder();
  const messageDecoder = getCompiledTransactionMessageDecoder();

  let timer: NodeJS.Timeout | undefined;
  let writing: Promise<void> | undefined;
  let closed = false;
  const dirty = () => journal.lastSeq() > snapshotSeq;

  /** Temp file, fsync, rename over the last one (kept as .prev), fsync the folder. */
  const writeSnapshot = async (): Promise<void> => {
    if (!file || !prevFile || !dirty()) return;
    const seq = journal.lastSeq();
    const buffer = encodeSnapshot(seq, svm.toBytes());
    const tmp = `${file}.tmp`;
    const handle = await open(tmp, 'w');
    try {
      await handle.writeFile(buffer);
      await handle.sync();
    } finally {
      await handle.close();
    }
    // The first snapshot has no predecessor to keep.
    await rename(file, prevFile).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
    await rename(tmp, file);
    await fsyncDir(dirname(file));
    // The journal must still reach back to the older snapshot, in case the newer one is lost.
    journal.prune(snapshotSeq);
    snapshotSeq = seq;
  };
  const checkpoint = async (): Promise<void> => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    while (writing) await writing;
    if (!dirty()) return;
    writing = writeSnapshot().finally(() => {
      writing = undefined;
    });
    await writing;
  };
  const schedule = (): void => {
    if (!file || closed) return;
    if (journal.lastSeq() - snapshotSeq >= CHECKPOINT_EVERY && !writing) {
      void checkpoint().catch((error: unknown) => warn(`chain: snapshot failed: ${String(error)}`));
      return;
    }
    if (timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      void checkpoint().catch((error: unknown) => warn(`chain: snapshot failed: ${String(error)}`));
    }, CHECKPOINT_DELAY_MS);
    timer.unref();
  };

  const slot = () => Number(svm.getClock().slot);
  // Each executed transaction lands in its own slot, as on a real chain.
  const advance = () => svm.warpToSlot(svm.getClock().slot + 1n);

  /**
   * Runs a transaction or an airdrop and records what it wrote. Nothing the chain cannot record
   * lands: when the journal refuses the entry (a full or read-only disk), the accounts are put
   * back as they were and the answer says it did not land, so a transfer reported failed never
   * moved money and one that moved money is never reported failed.
   */
  const execute = (
    run: () => TransactionMetadata | FailedTransactionMetadata | null,
    touched: readonly Address[],
    counts: boolean,
  ): ChainResult => {
    const before = touched.map((key) => storeAccount(svm.getAccount(key)));
    const result = run();
    try {
      return settle(result, touched, counts);
    } catch (error) {
      for (const stored of before) svm.setAccount(loadAccount(stored));
      const reason = error instanceof Error ? error.message : String(error);
      warn(`chain: a transaction could not be recorded and did not land: ${reason}`);
      return {
        ok: false,
        code: 'StorageUnavailable',
        message: `${NOT_RECORDED_MESSAGE} (${reason})`,
        logs: [],
        signature: null,
      };
    }
  };

  const settle = (
    result: TransactionMetadata | FailedTransactionMetadata | null,
    touched: readonly Address[],
    counts: boolean,
  ): ChainResult => {
    if (result === null)
      return {
        ok: false,
        code: 'Unknown',
        message: 'Transaction failed',
        logs: [],
        signature: null,
      };
    if (result instanceof FailedTransactionMetadata) {
      const { code, message } = describeFailure(result);
      return { ok: false, code, message, logs: result.meta().logs(), signature: null };
    }
    const signature = b58.decode(result.signature());
    const landed = slot();
    // Recorded before the signature is answered: a confirmed transaction survives a crash.
    journal.append(
      landed,
      touched.map((key) => storeAccount(svm.getAccount(key))),
      signature,
      counts,
    );
    advance();
    schedule();
    return { ok: true, signature };
  };

  const alreadyProcessed = (signature: string | null): ChainResult => ({
    ok: false,
    code: 'AlreadyProcessed',
    message: ERROR_MESSAGES.AlreadyProcessed!,
    logs: [],
    signature,
  });

  return {
    latestBlockhash: () => ({
      blockhash: svm.latestBlockhash(),
      lastValidBlockHeight: slot() + BLOCKHASH_VALIDITY,
      slot: slot(),
    }),
    slot,
    getBalance: (pubkey) => svm.getBalance(address(pubkey)) ?? 0n,
    sendWireTransaction(wire) {
      let tx;
      let touched: Address[];
      let signature: string | null = null;
      try {
        tx = txDecoder.decode(wire);
        touched = [...messageDecoder.decode(tx.messageBytes).staticAccounts];
        const first = Object.values(tx.signatures)[0];
        if (first) signature = b58.decode(first);
      } catch {
        return {
          ok: false,
          code: 'SanitizeFailure',
          message: 'failed to deserialize transaction',
          logs: [],
          signature: null,
        };
      }
      // LiteSVM's own history does not hold transactions replayed from the journal.
      if (signature && journal.hasSignature(signature)) return alreadyProcessed(signature);
      try {
        return execute(() => svm.sendTransaction(tx), touched, true);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        return { ok: false, code: 'SignatureFailure', message, logs: [], signature: null };
      }
    },
    airdrop: (pubkey, lamports) =>
      execute(() => svm.airdrop(address(pubkey), toLamports(lamports)), [address(pubkey)], false),
    signatureStatus(signature) {
      const landed = journal.signatureSlot(signature);
      return landed === undefined ? null : { slot: landed, err: null };
    },
    minimumBalanceForRentExemption: (len) => svm.minimumBalanceForRentExemption(BigInt(len)),
    transactionCount: () => journal.transactionCount(),
    expireBlockhash() {
      svm.expireBlockhash();
      // The blockhash is not in the journal: an empty entry makes the next snapshot carry it.
      journal.append(slot(), [], null, false);
      schedule();
    },
    checkpoint,
    async close() {
      if (closed) return;
      closed = true;
      await checkpoint().catch((error: unknown) =>
        warn(`chain: snapshot failed: ${String(error)}`),
      );
      journal.db.close();
    },
  };
}
