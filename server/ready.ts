import type { FastifyInstance } from 'fastify';
import { createRpcCaller } from './chain/rpcClient';
import type { Logger } from './context';

/**
 * Readiness: `GET /api/ready` answers 200 when every part a player's request needs can be
 * reached from this instance, else 503 naming the parts that cannot, so a proxy or an
 * orchestrator takes a sick instance out of its rotation. `GET /api/health` stays liveness (the
 * process answers) and never looks further.
 *
 * Each part is one check in a list: the chain's JSON-RPC (SOLANA_RPC_URL), the mail transport
 * (SMTP, nodemailer's `verify`: connect, greet, log in, quit; nothing is sent), and whatever a
 * later store adds (`database`). A check's outcome stands for `cacheMs` so a proxy probing every
 * second costs the mail server and the node one call per window, and probes asked while one runs
 * share it.
 */
export const READY_PATH = '/api/ready';
/** How long one check may take before it counts as unreachable. */
const READY_TIMEOUT_MS = 3_000;
/** How long an outcome stands before the part is asked again. */
const READY_CACHE_MS = 10_000;

export type ReadinessCheck = {
  /** The part, as a 503 names it: `chain`, `mail`, `database`. */
  readonly name: string;
  /** What a 503 says of the part when the probe fails. */
  readonly unreachable: string;
  /** Resolves when the part answers; rejects (or outlasts READY_TIMEOUT_MS) when it does not. */
  probe(): Promise<void>;
};

export type ReadinessAnswer = {
  status: 'ready' | 'not ready';
  /** Each part: `ok`, or why it is not. */
  checks: Record<string, string>;
  /** The parts that cannot be reached (empty when ready). */
  failing: string[];
  message?: string;
};

/** The chain: the node answers `getLatestBlockhash`, the first call of every payment. */
export function chainCheck(rpcUrl: string): ReadinessCheck {
  const call = createRpcCaller(rpcUrl, { timeoutMs: READY_TIMEOUT_MS });
  return {
    name: 'chain',
    unreachable: 'the chain RPC (SOLANA_RPC_URL) cannot be reached',
    probe: async () => {
      await call('getLatestBlockhash', [{ commitment: 'confirmed' }]);
    },
  };
}

/** The mail transport: an SMTP session that logs in and quits (nodemailer's `verify`). */
export function mailCheck(verify: () => Promise<unknown>): ReadinessCheck {
  return {
    name: 'mail',
    unreachable: 'the mail transport (SMTP_URL) cannot be reached',
    probe: async () => {
      await verify();
    },
  };
}

const withTimeout = (work: Promise<void>, ms: number): Promise<void> => {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, fail) => {
    timer = setTimeout(() => fail(new Error(`no answer in ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
};

type Outcome = { ok: true } | { ok: false; reason: string };

/**
 * Serves GET /api/ready over `checks` (read at each probe: a check pushed after start counts).
 * A part going down is logged once as a warning with its reason, its return once.
 */
export function registerReadiness(
  app: FastifyInstance,
  checks: readonly ReadinessCheck[],
  log: Logger,
  options: { cacheMs?: number; now?: () => number } = {},
): void {
  const cacheMs = options.cacheMs ?? READY_CACHE_MS;
  const now = options.now ?? Date.now;
  const last = new Map<string, { outcome: Outcome; at: number }>();
  const running = new Map<string, Promise<Outcome>>();

  const outcomeOf = (check: ReadinessCheck): Promise<Outcome> => {
    const known = last.get(check.name);
    if (known && now() - known.at < cacheMs) return Promise.resolve(known.outcome);
    const inFlight = running.get(check.name);
    if (inFlight) return inFlight;
    const probe = withTimeout(
      Promise.resolve().then(() => check.probe()),
      READY_TIMEOUT_MS,
    ).then(
      (): Outcome => ({ ok: true }),
      (error: unknown): Outcome => ({
        ok: false,
        reason: error instanceof Error ? error.message : String(error),
      }),
    );
    const settled = probe.then((outcome) => {
      running.delete(check.name);
      const before = last.get(check.name)?.outcome;
      last.set(check.name, { outcome, at: now() });
      if (!outcome.ok && before?.ok !== false)
        log.warn(`Not ready: ${check.unreachable} (${outcome.reason})`);
      else if (outcome.ok && before?.ok === false) log.info(`Ready again: ${check.name}`);
      return outcome;
    });
    running.set(check.name, settled);
    return settled;
  };

  app.get(READY_PATH, async (_req, reply) => {
    const outcomes = await Promise.all(checks.map(async (c) => [c, await outcomeOf(c)] as const));
    const failing = outcomes.filter(([, o]) => !o.ok).map(([c]) => c);
    const answer: ReadinessAnswer = {
      status: failing.length === 0 ? 'ready' : 'not ready',
      // The reason stays in the server's log: an error can name internal hosts.
      checks: Object.fromEntries(outcomes.map(([c, o]) => [c.name, o.ok ? 'ok' : 'unreachable'])),
      failing: failing.map((c) => c.name),
      ...(failing.length
        ? { message: `Not ready: ${failing.map((c) => `${c.name} (${c.unreachable})`).join('; ')}` }
        : {}),
    };
    return reply
      .code(failing.length === 0 ? 200 : 503)
      .header('Cache-Control', 'no-store')
      .send(answer);
  });
}
