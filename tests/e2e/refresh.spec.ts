import type { Page } from '@playwright/test';
import { registerUser } from '../support/api';
import { expect, test } from '../support/e2e';
import { signInPage } from '../support/pages';

/**
 * Token refresh in the built site against a local server whose jwts live 1 s of a clock the test
 * moves (§4 Token refresh):
 * an expired stored jwt is renewed by exactly one auth/refresh during the bootstrap; a refresh
 * token that no longer works logs out and the site loads signed out.
 */
/**
 * A fresh server whose jwts live 1 s of a clock the test moves, with a user registered on it:
 * `expireJwt()` moves that clock 2 s on, so the jwt the user holds has expired on the server.
 */
const JWT_TTL_S = 60;

async function shortJwtServer(
  freshServer: (opts: { jwtTtlSeconds: number; now: () => number }) => Promise<{ url: string }>,
  email: string,
) {
  let serverNow = Date.now();
  // A minute's jwt, expired by moving the server's clock past it: the renewed jwt then outlives
  // the test by the page's own clock too, so no scheduled renewal can add a second refresh on a
  // slow host (a 1 s jwt did, once the page took over a second to draw the home).
  const server = await freshServer({ jwtTtlSeconds: JWT_TTL_S, now: () => serverNow });
  const user = await registerUser(server.url, email);
  const expireJwt = () => {
    serverNow += (JWT_TTL_S + 1) * 1000;
  };
  return { server, user, expireJwt };
}

/** What the page keeps of the session in localStorage. */
const storedTokens = (page: Page) =>
  page.evaluate(() => ({
    jwt: localStorage.getItem('jwt'),
    refreshToken: localStorage.getItem('refreshToken'),
  }));

function countResponses(page: Page) {
  const seen: { path: string; status: number }[] = [];
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (url.pathname.startsWith('/api/')) {
      seen.push({ path: url.pathname.slice('/api/'.length), status: response.status() });
    }
  });
  return seen;
}

test('an expired jwt is renewed by one refresh and the user stays signed in', async ({
  page,
  freshServer,
  allowConsoleErrors,
}) => {
  allowConsoleErrors(/Failed to load resource: the server responded with a status of 401/);
  const { server, user, expireJwt } = await shortJwtServer(freshServer, 'refresh-e2e@example.com');
  await signInPage(page, user);
  expireJwt();
  const seen = countResponses(page);
  await page.goto(`${server.url}/`);
  await expect(page.getByRole('status').filter({ hasText: 'Loading' })).toBeHidden();
  await expect(page.getByText('refresh-e2e@example.com').first()).toBeVisible();
  expect(seen.filter((r) => r.path === 'auth/refresh')).toEqual([
    { path: 'auth/refresh', status: 200 },
  ]);
  const userData = seen.filter((r) => r.path === 'user/data').map((r) => r.status);
  expect(userData.slice(0, 2)).toEqual([401, 200]);
  const stored = await storedTokens(page);
  expect(stored.jwt).toBeTruthy();
  expect(stored.jwt).not.toBe(user.jwt);
  expect(stored.refreshToken).not.toBe(user.refreshToken);
});

test('a refresh token that no longer works logs out once; the site loads signed out', async ({
  page,
  freshServer,
  allowConsoleErrors,
}) => {
  allowConsoleErrors(/Failed to load resource: the server responded with a status of 401/);
  const { server, user, expireJwt } = await shortJwtServer(freshServer, 'revoked-e2e@example.com');
  // Revoke the refresh token behind the site's back (an Exit elsewhere): its stored copy is dead.
  const revoked = await fetch(`${server.url}/api/auth/logout`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ session: user.sessionToken, refresh_token: user.refreshToken }),
  });
  expect(revoked.status).toBe(200);
  await signInPage(page, user);
  expireJwt();
  const seen = countResponses(page);
  await page.clock.install();
  await page.goto(`${server.url}/`);
  await expect(page.getByRole('status').filter({ hasText: 'Loading' })).toBeHidden();
  await expect(page.getByRole('alertdialog', { name: 'Connection Error' })).toHaveCount(0);
  await expect(page.getByText('revoked-e2e@example.com')).toHaveCount(0);
  expect(seen.filter((r) => r.path === 'auth/refresh')).toHaveLength(1);
  const stored = await storedTokens(page);
  expect(stored).toEqual({ jwt: null, refreshToken: null });
  // Signed out: nothing protected is sent afterwards, however long the page stays open. The
  // page clock (installed before the visit) moves on by five minutes at once, firing every timer
  // (polls, pings, retries); a health request after them is the barrier for their requests.
  const asked: string[] = [];
  page.on('request', (request) => asked.push(new URL(request.url()).pathname));
  await page.clock.runFor(5 * 60_000);
  await page.evaluate(() => fetch('/api/health').then((r) => r.status));
  expect(asked).toContain('/api/health');
  expect(asked.filter((path) => path.startsWith('/api/user/'))).toEqual([]);
});
