import type { PlanBranch, SessionPlan } from '../../machines/session/session.plan';
import { API_VERSION } from '../../contract/spec';
import type { SessionStartData } from '../../machines/session/session.types';
import { hasExpired } from './jwtExpiry';

/** A call the page's head sent: the session its body carried (null: none) and the exchange. */
export type SentCall = { session: string | null; response: Promise<Response> };

/**
 * The session's calls the head's inline script sent (src/app/bootInline.ts), by the session
 * chart's actor names; the chart's steps take them (provideSession, ./compose.ts).
 */
export type HeadBoot = {
  sent: Partial<Record<string, SentCall>>;
  /** Settles when the walk has ended: no call is sent after it. */
  walked: Promise<unknown>;
};

export type HeadWalkDeps = {
  plan: SessionPlan;
  /** POSTs a contract path with the browser's fetch (a bearer jwt when given). */
  post: (path: string, payload: Record<string, unknown>, jwt?: string) => Promise<Response>;
  storedSession: string | null;
  storedJwt: string | null;
  startData: () => SessionStartData;
  now: () => number;
};

/**
 * Walks the session chart's plan (machines/session/session.plan.ts) with raw fetch, before the
 * app's code has arrived. It decides nothing of its own: each step's call is the chart's, each
 * branch is the chart's, picked by the chart's guards over what the head knows (storage at boot
 * and the answers). So that the player waits one round trip, not three, the steps the chart
 * will reach when every answer is the expected one are sent at once, when their payload is
 * known (sess/load of the stored session, user/data of a stored, current jwt); a branch taken
 * only on a failure (sess/create after a refused sess/load) is sent once the failure is known.
 * The walk ends at a step with no call (the chart's `loaded` or `failed`), or where the head
 * cannot go on (a call it cannot make, a guard it cannot read): `outcome` is that step, or null.
 */
export function walkSessionPlan(deps: HeadWalkDeps): HeadBoot & {
  outcome: Promise<string | null>;
} {
  const { plan, post, storedSession, storedJwt } = deps;
  const sent: HeadBoot['sent'] = {};
  // The calls the contract names, with the payloads the app's client sends; null: the head
  // cannot send it (no stored session for user/data, or a jwt that would only be refused: the
  // app's auth machine refreshes it first).
  const request = (call: string): SentCall | null => {
    const send = (path: string, payload: Record<string, unknown>, jwt?: string): SentCall => ({
      session: typeof payload.session === 'string' ? payload.session : null,
      response: post(path, payload, jwt),
    });
    const withSession = storedSession ? { session: storedSession } : {};
    if (call === 'sessInit') return send('sess/init', withSession);
    if (call === 'sessLoad' && storedSession) return send('sess/load', withSession);
    if (call === 'sessCreate') return send('sess/create', { data: deps.startData() });
    if (call === 'userData' && storedSession && storedJwt && !hasExpired(storedJwt, deps.now()))
      return send('user/data', withSession, storedJwt);
    return null;
  };
  const start = (call: string): SentCall | null => {
    const existing = sent[call];
    if (existing) return existing;
    const made = request(call);
    if (made) {
      // A failure is the app's to report when it reads the answer.
      made.response.catch(() => {});
      sent[call] = made;
    }
    return made;
  };
  // The chart's guards over what the head knows; undefined: it cannot tell.
  const guards: Record<string, (body: unknown) => boolean | undefined> = {
    isOtherVersion: (body) =>
      body === undefined ? undefined : (body as { version?: unknown }).version !== API_VERSION,
    hasStoredSessionToken: () => Boolean(storedSession),
    hasJwt: () => Boolean(storedJwt),
  };
  /** The branch the chart takes; `expected`: every guard that reads the answer says no. */
  const pick = (branches: PlanBranch[], body: unknown, expected: boolean): string | null => {
    for (const { guard, to } of branches) {
      if (guard === null) return to;
      const holds = guards[guard]?.(body);
      if (holds === undefined && !(expected && guard in guards)) return null;
      if (holds) return to;
    }
    return null;
  };
  const sendAhead = (from: string) => {
    let step = plan.steps[from];
    while (step) {
      const next = pick(step.done, undefined, true);
      const nextStep = next === null ? undefined : plan.steps[next];
      if (!nextStep || !start(nextStep.call)) return;
      step = nextStep;
    }
  };
  const walk = async (key: string): Promise<string | null> => {
    const step = plan.steps[key];
    if (!step) return key;
    const call = start(step.call);
    if (!call) return null;
    sendAhead(key);
    const answer = await call.response
      .then(
        async (response) =>
          response.ok ? { ok: true, body: (await response.clone().json()) as unknown } : null,
        () => null,
      )
      .catch(() => null);
    const next = answer ? pick(step.done, answer.body, false) : pick(step.error, undefined, false);
    return next === null ? null : walk(next);
  };
  const outcome = walk(plan.initial);
  return { sent, walked: outcome, outcome };
}
