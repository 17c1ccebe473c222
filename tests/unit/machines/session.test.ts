import { describe, expect, it } from 'vitest';
import { fromPromise, waitFor } from 'xstate';
import { sessionMachine } from '../../../machines/session/session.machine';
import { SESSION_MESSAGES } from '../../../machines/session/session.messages';
import {
  selectDiscountPercent,
  selectOldPrice,
  selectTicketPrice,
  selectTicketPriceLamports,
} from '../../../machines/session/session.selectors';
import type { PublicData, SessionInput } from '../../../machines/session/session.types';
import { USER_DATA } from '../api/fakeFetch';
import { startSessionUnderParent } from '../../support/sessionParent';

/** The session bootstrap as an actor with provided fakes (§4 Session, §8, §9 prices). */
type Fakes = {
  init?: () => Promise<{ version: string; data: { public_data: PublicData } }>;
  load?: () => Promise<unknown>;
  create?: () => Promise<{ sessionToken: string }>;
  user?: () => Promise<{ user_data: typeof USER_DATA }>;
};

function run(input: Partial<SessionInput>, fakes: Fakes = {}) {
  const calls: string[] = [];
  const storage: string[] = [];
  const session = sessionMachine.provide({
    actors: {
      sessInit: fromPromise(() => {
        calls.push('sess/init');
        return (fakes.init ?? (async () => ({ version: '0.2.0', data: { public_data: {} } })))();
      }),
      sessLoad: fromPromise(({ input: i }) => {
        calls.push(`sess/load ${i.session}`);
        return (fakes.load ?? (async () => ({ status: 'ok' })))();
      }),
      sessCreate: fromPromise(({ input: i }) => {
        calls.push(`sess/create ${JSON.stringify(i.data)}`);
        return (fakes.create ?? (async () => ({ sessionToken: 'new-token' })))();
      }),
      userData: fromPromise(() => {
        calls.push('user/data');
        return (fakes.user ?? (async () => ({ user_data: USER_DATA })))();
      }),
    },
    actions: {
      persistSessionToken: (_, p) => void storage.push(`set ${p.sessionToken}`),
      removeStoredSessionToken: () => void storage.push('remove'),
    },
  });
  const fullInput: SessionInput = {
    sessionToken: null,
    hasJwt: false,
    startData: { language: 'de-DE', user_agent: 'UA', utm_source: 'x' },
    ...input,
  };
  const { ref, toParent, toAuth } = startSessionUnderParent(session, fullInput);
  const settled = waitFor(ref, (s) => s.matches('loaded') || s.matches('failed'));
  return { ref, settled, calls, storage, toParent, toAuth };
}

describe('session bootstrap', () => {
  it('without a stored token creates a session, sets the cookie-consent flag, no user/data', async () => {
    const t = run({});
    const s = await t.settled;
    expect(s.value).toBe('loaded');
    expect(t.calls).toEqual([
      'sess/init',
      'sess/create {"language":"de-DE","user_agent":"UA","utm_source":"x"}',
    ]);
    expect(t.storage).toEqual(['set new-token']);
    expect(s.context.cookieConsentNeeded).toBe(true);
    expect(t.toParent).toEqual([{ type: 'session.loaded', publicData: s.context.publicData }]);
  });

  it('a loaded session without a jwt skips user/data', async () => {
    const t = run({ sessionToken: 'stored' });
    const s = await t.settled;
    expect(s.value).toBe('loaded');
    expect(t.calls).toEqual(['sess/init', 'sess/load stored']);
    expect(s.context.cookieConsentNeeded).toBe(false);
    expect(t.storage).toEqual([]);
  });

  it('a stale stored token is removed and replaced by a new session', async () => {
    const t = run(
      { sessionToken: 'stale' },
      { load: () => Promise.reject({ kind: 'http', message: 'Session not found', status: 404 }) },
    );
    const s = await t.settled;
    expect(s.value).toBe('loaded');
    expect(t.calls.slice(0, 2)).toEqual(['sess/init', 'sess/load stale']);
    expect(t.calls[2]).toMatch(/^sess\/create/);
    expect(t.storage).toEqual(['remove', 'set new-token']);
    expect(s.context.sessionToken).toBe('new-token');
  });

  it('with a jwt fetches user/data and hands it to auth', async () => {
    const t = run({ sessionToken: 'stored', hasJwt: true });
    await t.settled;
    expect(t.calls).toEqual(['sess/init', 'sess/load stored', 'user/data']);
    expect(t.toAuth).toEqual([{ type: 'auth.userLoaded', userData: USER_DATA }]);
  });

  it('user/data failing because the jwt could not be renewed loads signed out, no app error', async () => {
    const t = run(
      { sessionToken: 'stored', hasJwt: true },
      { user: () => Promise.reject({ kind: 'auth', message: 'Token refresh failed' }) },
    );
    const s = await t.settled;
    expect(s.value).toBe('loaded');
    expect(t.toParent).toEqual([{ type: 'session.loaded', publicData: s.context.publicData }]);
    expect(t.toAuth).toEqual([]);
  });

  it('user/data failing otherwise is an application error', async () => {
    const t = run(
      { sessionToken: 'stored', hasJwt: true },
      { user: () => Promise.reject({ kind: 'network', message: 'x' }) },
    );
    expect((await t.settled).context.errorText).toBe(SESSION_MESSAGES.connect);
  });

  it('another version fails with the expired-version text naming 0.2.0', async () => {
    const t = run({}, { init: async () => ({ version: '0.1.9', data: { public_data: {} } }) });
    const s = await t.settled;
    const text = 'Expired version. Please reload the app - version 0.2.0 is required';
    expect(s.context.errorText).toBe(text);
    expect(t.toParent).toEqual([{ type: 'session.failed', code: 'Init', text }]);
    expect(t.calls).toEqual(['sess/init']);
  });

  it('a network failure gives the connection text', async () => {
    const t = run({}, { init: () => Promise.reject({ kind: 'network', message: 'x' }) });
    expect((await t.settled).context.errorText).toBe(
      'Unable to connect to the server. Please check your internet connection and try again.',
    );
  });

  it("a server failure gives the server's message, else 'Failed to load session'", async () => {
    const withMessage = run(
      {},
      { init: () => Promise.reject({ kind: 'http', message: 'Down', serverMessage: 'Down' }) },
    );
    expect((await withMessage.settled).context.errorText).toBe('Down');
    const html = run({}, { create: () => Promise.reject({ kind: 'http', message: 'status 502' }) });
    expect((await html.settled).context.errorText).toBe(SESSION_MESSAGES.sessionFailed);
    const odd = run({}, { init: () => Promise.reject(new Error('boom')) });
    expect((await odd.settled).context.errorText).toBe('Failed to load session');
  });
});

describe('ticket price selectors (§9)', () => {
  async function loadedWith(publicData: PublicData) {
    const t = run(
      {},
      { init: async () => ({ version: '0.2.0', data: { public_data: publicData } }) },
    );
    return t.settled;
  }
  it('default 0.22 SOL, old price 0.55, 60% off when the server gives none', async () => {
    const s = await loadedWith({});
    expect(selectTicketPrice(s)).toBe('0.22');
    expect(selectOldPrice(s)).toBe('0.55');
    expect(selectDiscountPercent(s)).toBe(60);
    expect(selectTicketPriceLamports(s)).toBe('220000000');
  });
  it('ticket_price, then price, from public_data; discount computed from the two', async () => {
    const s = await loadedWith({ ticket_price: '0.33', price: '0.5' });
    expect(selectTicketPrice(s)).toBe('0.33');
    expect(selectDiscountPercent(s)).toBe(40);
    expect(selectTicketPriceLamports(s)).toBe('330000000');
    const p = await loadedWith({ price: '0.55', old_price: '0.55' });
    expect(selectTicketPrice(p)).toBe('0.55');
    expect(selectDiscountPercent(p)).toBe(0);
  });
  it('a price that is not a positive decimal falls back to the default', async () => {
    const s = await loadedWith({ ticket_price: 'abc', old_price: '-1' });
    expect(selectTicketPrice(s)).toBe('0.22');
    expect(selectOldPrice(s)).toBe('0.55');
  });
});
