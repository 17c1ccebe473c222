import { describe, expect, it } from 'vitest';
import type { ErrorReport } from '../../machines/errorModal/errorModal.types';
import { installGlobalErrorHandler, toErrorReport } from '../../src/platform/errors';
import { ApiError } from '../../src/api/errors';

describe('toErrorReport', () => {
  it('reads the response data message, status and URL of a failed call', () => {
    const failed = Object.assign(new Error('Request failed with status code 404'), {
      response: { status: 404, data: { message: 'Not Found' }, url: '/api/keys/list' },
    });
    expect(toErrorReport(failed)).toMatchObject({
      responseMessage: 'Not Found',
      errorMessage: 'Request failed with status code 404',
      status: 404,
      path: '/api/keys/list',
    });
  });

  it("reads a failed call of the site's API client: the server's message first (§8), status, path", () => {
    const failed = new ApiError('http', 'Request failed with status 503', 'user/data', {
      status: 503,
      serverMessage: 'Maintenance until noon',
    });
    expect(toErrorReport(failed)).toMatchObject({
      responseMessage: 'Maintenance until noon',
      errorMessage: 'Request failed with status 503',
      status: 503,
      path: 'user/data',
    });
  });

  it('takes a thrown string or a message-bearing object, and nothing from other values', () => {
    expect(toErrorReport('Provider not available').errorMessage).toBe('Provider not available');
    expect(toErrorReport({ message: 'Error loading session' }).errorMessage).toBe(
      'Error loading session',
    );
    expect(toErrorReport(42)).toEqual({});
  });
});

describe('installGlobalErrorHandler', () => {
  const fakeWindow = () => {
    const target = new EventTarget() as EventTarget & { location: { href: string } };
    target.location = { href: 'http://127.0.0.1/' };
    return target;
  };

  it('reports uncaught errors and unhandled rejections, and stops after uninstall', () => {
    const target = fakeWindow();
    const reports: ErrorReport[] = [];
    const uninstall = installGlobalErrorHandler(
      { send: (e) => void reports.push(e.report) },
      target as unknown as Window,
      () => 1_000,
    );
    const error = Object.assign(new Event('error'), {
      error: new Error('Expired version'),
      message: 'Uncaught Error: Expired version',
      filename: 'http://127.0.0.1/assets/app.js',
    });
    target.dispatchEvent(error);
    const rejection = Object.assign(new Event('unhandledrejection', { cancelable: true }), {
      reason: new Error('Failed to load session'),
    });
    target.dispatchEvent(rejection);
    expect(rejection.defaultPrevented).toBe(true);
    expect(reports).toMatchObject([
      {
        errorMessage: 'Expired version',
        file: 'http://127.0.0.1/assets/app.js',
        location: 'http://127.0.0.1/',
        timestamp: 1_000,
      },
      { errorMessage: 'Failed to load session', location: 'http://127.0.0.1/', timestamp: 1_000 },
    ]);
    uninstall();
    target.dispatchEvent(rejection);
    expect(reports).toHaveLength(2);
  });

  it('ignores resource load errors that carry no error or message', () => {
    const target = fakeWindow();
    const reports: ErrorReport[] = [];
    installGlobalErrorHandler(
      { send: (e) => void reports.push(e.report) },
      target as unknown as Window,
    );
    target.dispatchEvent(new Event('error'));
    expect(reports).toEqual([]);
  });
});
