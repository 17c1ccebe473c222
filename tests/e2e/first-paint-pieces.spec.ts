import { expect, test } from '../support/e2e';
import { layoutShifts, waitForApp } from '../support/pages';
import { startPiecemealProxy } from '../support/piecemealProxy';

/**
 * A page that arrives in pieces (a slow phone's connection; a busy core parses it the same way)
 * is laid out and painted part by part. Nothing of it may move as the later parts arrive, nor
 * when the app takes it over: the loading overlay's logo, the hero's centred lines, the dated
 * words (the build's until the page's clock has read the time). The site is served through a
 * front that hands each document's body out 300 bytes at a time, 100 ms apart.
 */
const SIZES = [
  { width: 390, height: 844 },
  { width: 1440, height: 900 },
] as const;

for (const path of ['/', '/docs/intro'])
  for (const size of SIZES)
    test(`${path} arriving in pieces is drawn without a layout shift at ${size.width}×${size.height}`, async ({
      page,
      baseURL,
    }) => {
      const front = await startPiecemealProxy(baseURL!, { pieceBytes: 300, pauseMs: 100 });
      try {
        await page.setViewportSize(size);
        await page.goto(`${front.url}${path}`);
        await waitForApp(page);
        const shifts = await layoutShifts(page);
        expect(shifts.sum, `what moved: ${shifts.moved.join('; ')}`).toBe(0);
      } finally {
        await front.close();
      }
    });
