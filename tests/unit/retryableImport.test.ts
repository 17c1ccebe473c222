import { describe, expect, it } from 'vitest';
import { failedModuleUrl, retryableImport } from '../../src/platform/retryableImport';

describe('retryableImport', () => {
  it("reads the chunk address from Chromium's failed-import message", () => {
    const error = new TypeError(
      'Failed to fetch dynamically imported module: http://127.0.0.1:4173/assets/SignInModal-Bx1_9a.js',
    );
    expect(failedModuleUrl(error)).toBe('http://127.0.0.1:4173/assets/SignInModal-Bx1_9a.js');
    // A failed retry names its own address: the query is not part of what is asked again.
    expect(
      failedModuleUrl(
        new TypeError(
          'Failed to fetch dynamically imported module: https://a.b/assets/x-1.js?retry=2',
        ),
      ),
    ).toBe('https://a.b/assets/x-1.js');
    expect(failedModuleUrl(new Error('something else'))).toBeNull();
  });

  it('imports through the importer until it fails, and hands over what pick takes', async () => {
    let calls = 0;
    const load = retryableImport(
      () => {
        calls += 1;
        return Promise.resolve({ View: 'the view' });
      },
      (m) => m.View,
    );
    await expect(load()).resolves.toBe('the view');
    await expect(load()).resolves.toBe('the view');
    expect(calls).toBe(2);
  });

  it('after a failure that names no address, asks the importer again', async () => {
    let calls = 0;
    const load = retryableImport(() => {
      calls += 1;
      return calls === 1 ? Promise.reject(new Error('offline')) : Promise.resolve('loaded');
    });
    await expect(load()).rejects.toThrow('offline');
    await expect(load()).resolves.toBe('loaded');
  });
});
