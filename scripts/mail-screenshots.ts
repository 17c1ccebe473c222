// Draws the sign-in code e-mail (server/mail.ts, its HTML part as a mail client shows it) in
// Debian Chromium at phone and desktop widths, in light and dark: docs/screenshots/mail-*.png.
// `npm run mail:screenshots`; nothing is downloaded (the e-mail has no remote images).
import { resolve } from 'node:path';
import { chromium } from '@playwright/test';
import { codeEmail } from '../server/mail';

const root = resolve(import.meta.dirname, '..');
const mail = codeEmail('player@example.com', '483920', 'https://play.solanamafiawars.example');
const browser = await chromium.launch({
  executablePath: process.env.CHROME_PATH || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu'],
});
try {
  for (const [width, height] of [
    [390, 844],
    [1440, 900],
  ] as const) {
    for (const colorScheme of ['light', 'dark'] as const) {
      const page = await browser.newPage({ viewport: { width, height }, colorScheme });
      // Offline, as a careful mail client: any request the HTML made would fail the run.
      await page.route('**/*', (route) => route.abort());
      await page.setContent(mail.html, { waitUntil: 'load' });
      const out = resolve(root, `docs/screenshots/mail-${width}x${height}-${colorScheme}.png`);
      await page.screenshot({ path: out, fullPage: true });
      console.log(`mail: ${out}`);
      await page.close();
    }
  }
} finally {
  await browser.close();
}
