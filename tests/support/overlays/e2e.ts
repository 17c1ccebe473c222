import type { Page } from '@playwright/test';
import type { OverlayDevHooks } from '../../../src/views/overlays/devHooks';
import { waitForApp } from '../pages';

/**
 * Drives the overlays of the running app (local-mode build) through `window.__smwOverlays`, the
 * test hooks the overlays install outside production builds (typed by the hooks themselves).
 */
type Arg<K extends keyof OverlayDevHooks> = Parameters<OverlayDevHooks[K]>[0];
type Notification = Arg<'notify'>;
type Information = Arg<'info'>;
type ErrorReport = Arg<'reportError'>;
type ErrorModalOpenPayload = Arg<'openError'>;
type HookWindow = Window & { __smwOverlays?: OverlayDevHooks };

export async function openApp(page: Page, path = '/'): Promise<void> {
  await page.goto(path);
  await waitForApp(page);
  await page.waitForFunction(() => Boolean((window as HookWindow).__smwOverlays));
}

export async function notify(page: Page, notifications: Notification[]): Promise<void> {
  await page.evaluate((list) => {
    for (const n of list) (window as HookWindow).__smwOverlays?.notify(n);
  }, notifications);
}

export async function info(page: Page, information: Information): Promise<void> {
  await page.evaluate((i) => (window as HookWindow).__smwOverlays?.info(i), information);
}

export async function reportError(page: Page, report: ErrorReport): Promise<void> {
  await page.evaluate((r) => (window as HookWindow).__smwOverlays?.reportError(r), report);
}

export async function openError(page: Page, payload: ErrorModalOpenPayload): Promise<void> {
  await page.evaluate((p) => (window as HookWindow).__smwOverlays?.openError(p), payload);
}

export async function openVideo(page: Page, src: string, autoplay = false): Promise<void> {
  await page.evaluate(([s, a]) => (window as HookWindow).__smwOverlays?.openVideo(s, a), [
    src,
    autoplay,
  ] as const);
}
