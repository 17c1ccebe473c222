import { expectNoAxeViolations } from '../support/axe';
import { expect, test } from '../support/e2e';

/**
 * What a shared link previews and what the browser's tab says: each route's title and
 * description, the Open Graph and Twitter card tags with the share image, and the Page not found
 * page with status 404 for paths the site does not have (unknown doc ids still show intro, §2).
 * Expected texts are written here from the pages' own names, not read from the site's code.
 */
const GUIDE_TITLES = [
  ['intro', 'Introduction'],
  ['lore', 'Lore'],
  ['fight', 'Fights'],
  ['terms', 'Terms of Service'],
] as const;

const metaContent = (html: string, attribute: 'name' | 'property', key: string) =>
  new RegExp(`<meta ${attribute}="${key}" content="([^"]*)"`).exec(html)?.[1];

test('each route has its own title and description in the served page', async ({
  page,
  request,
}) => {
  const seen = new Set<string>();
  const pages: [string, RegExp][] = [
    ['/', /^Solana Mafia Wars: build your criminal empire$/],
    ['/r/FRIEND42', /^You are invited to Solana Mafia Wars$/],
    ...GUIDE_TITLES.map(
      ([id, title]) =>
        [`/docs/${id}`, new RegExp(`^${title} · Solana Mafia Wars guide$`)] as [string, RegExp],
    ),
  ];
  for (const [path, title] of pages) {
    const response = await request.get(path);
    expect(response.status(), path).toBe(200);
    const html = await response.text();
    expect(/<title>([^<]*)<\/title>/.exec(html)?.[1], path).toMatch(title);
    const description = metaContent(html, 'name', 'description');
    expect(description?.length ?? 0, `${path} description`).toBeGreaterThan(50);
    seen.add(description ?? '');
  }
  // Home, the invite and every guide describe themselves: no two share one description.
  expect(seen.size).toBe(pages.length);

  // In the browser the tab follows the route: a guide, another, then Home again.
  await page.goto('/docs/lore');
  await expect(page).toHaveTitle('Lore · Solana Mafia Wars guide');
  await page
    .getByRole('link', { name: /Fights/ })
    .first()
    .click();
  await expect(page).toHaveTitle('Fights · Solana Mafia Wars guide');
  await page.getByRole('link', { name: 'Back to Home' }).click();
  await expect(page).toHaveTitle('Solana Mafia Wars: build your criminal empire');
});

test('every page carries the share tags and the share image is a 1200×630 PNG', async ({
  request,
}) => {
  for (const path of ['/', '/r/FRIEND42', '/docs/intro', '/no-such-page']) {
    const html = await (await request.get(path)).text();
    const title = /<title>([^<]*)<\/title>/.exec(html)?.[1];
    expect(metaContent(html, 'property', 'og:title'), path).toBe(title);
    expect(metaContent(html, 'name', 'twitter:title'), path).toBe(title);
    expect(metaContent(html, 'property', 'og:description'), path).toBe(
      metaContent(html, 'name', 'description'),
    );
    expect(metaContent(html, 'name', 'twitter:card'), path).toBe('summary_large_image');
    expect(metaContent(html, 'property', 'og:image'), path).toMatch(/\/share\.png$/);
    expect(metaContent(html, 'name', 'twitter:image'), path).toMatch(/\/share\.png$/);
  }
  const image = await request.get('/share.png');
  expect(image.status()).toBe(200);
  expect(image.headers()['content-type']).toBe('image/png');
  const bytes = await image.body();
  // PNG signature, then the IHDR chunk: width and height as big-endian 32-bit integers.
  expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
  expect(bytes.readUInt32BE(16)).toBe(1200);
  expect(bytes.readUInt32BE(20)).toBe(630);
});

test('a path the site does not have answers 404 with a Page not found page that leads back', async ({
  page,
  allowConsoleErrors,
}) => {
  // Chromium logs the page's own 404 status as a console error.
  allowConsoleErrors(/status of 404 \(Not Found\).*\/no-such-page\/at-all/);
  const response = await page.goto('/no-such-page/at-all');
  expect(response?.status()).toBe(404);
  await expect(page).toHaveTitle('Page not found · Solana Mafia Wars');
  await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
  await expect(page).toHaveURL(/\/no-such-page\/at-all$/);
  await expect(page.getByRole('status').filter({ hasText: 'Loading' })).toBeHidden();
  // Audited once the page has settled (its own code loaded): the heading is still there.
  await page.waitForLoadState('networkidle');
  await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByRole('link', { name: 'Back to Home' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Solana Mafia Wars' })).toBeVisible();
  await expect(page).toHaveTitle('Solana Mafia Wars: build your criminal empire');

  // The app's own routes and files are not caught by it.
  for (const path of ['/', '/docs', '/docs/unknown-guide', '/r/FRIEND42', '/ref/FRIEND42']) {
    expect((await page.request.get(path)).status(), path).toBe(200);
  }
  expect((await page.request.get('/missing-file.js')).status()).toBe(404);
});
