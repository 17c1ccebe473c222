import { describe, expect, it } from 'vitest';
import { REFRESH_GRACE_MS } from '../../../server/tokens';
import { postApi, registerUser } from '../../support/api';
import { serversClosedAfterEach } from '../../support/servers';

/**
 * Sessions and sign-in probed as an attacker would, over real HTTP and websockets: one line per
 * probe, `security: what — tried / got through`, each at 0 got through.
 */
const figure = (what: string, tried: number, through: number) =>
  console.log(`security: ${what} — ${tried} tried / ${through} got through`);

const start = serversClosedAfterEach();

describe('a refresh token replayed within the grace', () => {
  it('answers the same successor every time, never a new token; after the grace it ends the family', async () => {
    const clock = { ms: Date.parse('2025-11-10T10:00:00Z') };
    const server = await start({ now: () => clock.ms, plugins: [] });
    const user = await registerUser(server.url, 'replay@site.test');
    const refresh = (token: string) =>
      postApi(server.url, 'auth/refresh', { refresh_token: token });
    const first = await refresh(user.refreshToken);
    expect(first.status).toBe(200);
    const successor = String(first.body.refresh_token);
    // A thief replays the stolen token, in bursts and one by one, until the grace ends.
    const tried = 30;
    const answers = await Promise.all(
      Array.from({ length: tried / 2 }, () => refresh(user.refreshToken)),
    );
    for (let i = 0; i < tried / 2; i += 1) {
      clock.ms += Math.floor(REFRESH_GRACE_MS / tried);
      answers.push(await refresh(user.refreshToken));
    }
    expect(answers.every((a) => a.status === 200)).toBe(true);
    const others = new Set(
      answers.map((a) => String(a.body.refresh_token)).filter((t) => t !== successor),
    );
    figure('new token families from one refresh token within the grace', tried, others.size);
    expect(others.size).toBe(0);

    // The successor still works; the replay after the grace is theft and ends the family.
    const next = await refresh(successor);
    expect(next.status).toBe(200);
    clock.ms += REFRESH_GRACE_MS + 1;
    expect((await refresh(user.refreshToken)).status).toBe(401);
    expect((await refresh(String(next.body.refresh_token))).status).toBe(401);
  });
});
