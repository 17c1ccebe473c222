import { afterEach, describe, expect, it } from 'vitest';
import { API_VERSION, CALLS } from '../../../contract/api';
import { calendarFromEnv } from '../../../contract/calendar';
import type { RunningServer } from '../../../server/app';
import { postApi, query, startTestServer } from '../../support/api';
import * as v from 'valibot';

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const at = (iso: string) => () => Date.parse(iso);

describe('sess/init', () => {
  it('answers status ok, the API version and the ticket offer, matching the contract', async () => {
    // The spec's calendar with every default, the invitation date included.
    server = await startTestServer({
      plugins: [],
      now: at('2025-11-01T12:00:00Z'),
      calendar: calendarFromEnv({}),
    });
    const answer = await postApi(server.url, 'sess/init', {});
    expect(answer.status).toBe(200);
    expect(() => v.parse(CALLS.sessInit.response, answer.body)).not.toThrow();
    expect(answer.body).toEqual({
      status: 'ok',
      version: API_VERSION,
      data: {
        public_data: {
          price: '0.22',
          ticket_price: '0.22',
          old_price: '0.55',
          ticket_price_lamports: '220000000',
          launch_at: '2025-12-20T00:00:00.000Z',
          early_bird_end: '2025-11-20T00:00:00.000Z',
          // §2 bonus box: an invitation is required from the Early Bird end (Nov 20).
          invitation_from: '2025-11-20T00:00:00.000Z',
        },
      },
    });
  });

  it.each([
    ['2025-11-19T23:59:59Z', '0.22', '220000000'],
    ['2025-11-20T00:00:00Z', '0.33', '330000000'],
    ['2025-12-19T23:59:59Z', '0.33', '330000000'],
    ['2025-12-20T00:00:00Z', '0.55', '550000000'],
  ])('prices the ticket by date: at %s it costs %s SOL', async (iso, price, lamports) => {
    server = await startTestServer({ plugins: [], now: at(iso) });
    const answer = await postApi(server.url, 'sess/init', {});
    expect(answer.body).toMatchObject({
      data: { public_data: { price, ticket_price: price, ticket_price_lamports: lamports } },
    });
  });

  it('takes a fixed ticket price when one is configured (TICKET_PRICE_SOL)', async () => {
    server = await startTestServer({
      plugins: [],
      ticketPriceSol: '0.0157',
      now: at('2025-12-25T00:00:00Z'),
    });
    const answer = await postApi(server.url, 'sess/init', {});
    expect(answer.body).toMatchObject({
      data: {
        public_data: { price: '0.0157', ticket_price_lamports: '15700000', old_price: '0.55' },
      },
    });
  });

  it('answers the configured version, so the client can detect an expired one', async () => {
    server = await startTestServer({ plugins: [], apiVersion: '0.1.9' });
    const answer = await postApi(server.url, 'sess/init', {});
    expect(answer.body.version).toBe('0.1.9');
  });
});

describe('sess/create and sess/load', () => {
  it('creates a session with the start data and loads it back by its token', async () => {
    server = await startTestServer({ plugins: [] });
    const created = await postApi(server.url, 'sess/create', {
      data: {
        language: 'en-GB',
        user_agent: 'Mozilla/5.0',
        utm_source: 'x',
        utm_campaign: 'launch',
        utm_medium: 'social',
      },
    });
    expect(created.status).toBe(200);
    expect(() => v.parse(CALLS.sessCreate.response, created.body)).not.toThrow();
    const token = String(created.body.sessionToken);
    expect(token.length).toBeGreaterThanOrEqual(20);
    const [row] = await query<Record<string, string>>(
      server,
      'SELECT language, user_agent, utm_source, utm_campaign, utm_medium, token_hash FROM sessions',
    );
    expect(row).toMatchObject({
      language: 'en-GB',
      user_agent: 'Mozilla/5.0',
      utm_source: 'x',
      utm_campaign: 'launch',
      utm_medium: 'social',
    });
    expect(row!.token_hash).not.toBe(token);

    const loaded = await postApi(server.url, 'sess/load', { session: token, data: {} });
    expect(loaded.status).toBe(200);
    expect(loaded.body.status).toBe('ok');
  });

  it('refuses an unknown session token with a 4xx and a message', async () => {
    server = await startTestServer({ plugins: [] });
    const loaded = await postApi(server.url, 'sess/load', { session: 'not-a-session', data: {} });
    expect(loaded.status).toBeGreaterThanOrEqual(400);
    expect(loaded.status).toBeLessThan(500);
    expect(loaded.body).toMatchObject({ status: 'error', result: false });
    expect(typeof loaded.body.message).toBe('string');
  });
});
