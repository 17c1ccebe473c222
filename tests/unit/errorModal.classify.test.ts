import { describe, expect, it } from 'vitest';
import { classifyError, ERROR_TEXT, errorMessageOf } from '../../machines/errorModal/classifyError';
import {
  formatErrorDetails,
  isKnownComponent,
  isKnownFile,
} from '../../machines/errorModal/errorDetails';
import {
  UNEXPECTED_ERROR,
  UNKNOWN_COMPONENT,
  UNKNOWN_FILE,
} from '../../machines/errorModal/errorModal.types';

describe('errorMessageOf: §8 precedence', () => {
  it('prefers the response data message', () => {
    expect(errorMessageOf({ responseMessage: 'From server', errorMessage: 'From error' })).toBe(
      'From server',
    );
  });
  it('then the error message', () => {
    expect(errorMessageOf({ responseMessage: '', errorMessage: 'From error' })).toBe('From error');
  });
  it('then the fallback', () => {
    expect(errorMessageOf({})).toBe('An unexpected error occurred');
    expect(UNEXPECTED_ERROR).toBe('An unexpected error occurred');
    expect(errorMessageOf({ errorMessage: '   ' })).toBe(UNEXPECTED_ERROR);
  });
});

describe('classifyError: §8 special cases', () => {
  it('a plain error is a modal with its own message and no solution', () => {
    expect(classifyError({ errorMessage: 'Boom' })).toEqual({
      kind: 'modal',
      message: 'Boom',
      solution: '',
    });
  });

  it('Expired version: keep the message, hint to reload', () => {
    const message = 'Expired version. Please reload the app - version 0.2.0 is required';
    expect(classifyError({ errorMessage: message })).toEqual({
      kind: 'modal',
      message,
      solution: ERROR_TEXT.expiredVersionSolution,
    });
    expect(ERROR_TEXT.expiredVersionSolution).toMatch(/reload/i);
  });

  it.each(['Failed to load session', 'Error loading session'])(
    '%s: check connection and retry',
    (message) => {
      const outcome = classifyError({ responseMessage: message });
      expect(outcome).toEqual({ kind: 'modal', message, solution: ERROR_TEXT.sessionSolution });
      expect(ERROR_TEXT.sessionSolution).toMatch(/connection/i);
      expect(ERROR_TEXT.sessionSolution).toMatch(/try again/i);
    },
  );

  it.each([
    "Cannot read properties of undefined (reading 'user_email')",
    "Cannot read property 'x' of undefined",
    'undefined is not an object (evaluating a.b)',
  ])('reading a property of undefined (%s) gets the data-structure message', (message) => {
    const outcome = classifyError({ errorMessage: message });
    expect(outcome.kind).toBe('modal');
    expect(outcome.message).toBe(ERROR_TEXT.undefinedProperty);
    expect(outcome.message).toMatch(/data structure/i);
  });

  it('reading a property of null is not the undefined case', () => {
    const message = "Cannot read properties of null (reading 'x')";
    expect(classifyError({ errorMessage: message }).message).toBe(message);
  });

  it.each([
    { status: 404, errorMessage: 'Request failed' },
    { errorMessage: 'Request failed with status code 404' },
    { responseMessage: 'Not Found' },
  ])('404 / Not Found → 404: Resource not found (%o)', (report) => {
    expect(classifyError(report)).toEqual({
      kind: 'modal',
      message: '404: Resource not found',
      solution: ERROR_TEXT.notFoundSolution,
    });
  });

  it('a 404 on a legacy /keys/ path points to /agents/', () => {
    const outcome = classifyError({
      status: 404,
      path: '/api/keys/list',
      errorMessage: 'Not Found',
    });
    expect(outcome.message).toBe('404: Resource not found');
    expect(outcome.kind === 'modal' && outcome.solution).toBe(ERROR_TEXT.legacyKeysSolution);
    expect(ERROR_TEXT.legacyKeysSolution).toContain('/agents/');
    expect(ERROR_TEXT.legacyKeysSolution).toMatch(/outdated/i);
  });

  it('Provider not available → warning Web3 provider not available, advising a wallet', () => {
    const outcome = classifyError({ errorMessage: 'Provider not available' });
    expect(outcome.kind).toBe('warning');
    expect(outcome.message.startsWith('Web3 provider not available')).toBe(true);
    expect(outcome.message).toMatch(/install/i);
    expect(outcome.message).toMatch(/wallet/i);
  });

  it('Deprecation warning is only logged', () => {
    expect(classifyError({ errorMessage: 'Deprecation warning: x() is deprecated' })).toEqual({
      kind: 'logOnly',
      message: 'Deprecation warning: x() is deprecated',
    });
  });

  it('the response message decides the case over the error message', () => {
    expect(
      classifyError({ responseMessage: 'Provider not available', errorMessage: 'Expired version' })
        .kind,
    ).toBe('warning');
  });
});

describe('error details', () => {
  it('hides the unknown placeholders', () => {
    expect(isKnownComponent(UNKNOWN_COMPONENT)).toBe(false);
    expect(isKnownFile(UNKNOWN_FILE)).toBe(false);
    expect(isKnownComponent('GetTicketTab')).toBe(true);
    expect(isKnownFile('src/views/ticket/GetTicketTab.tsx')).toBe(true);
  });

  it('summarises every field for the clipboard', () => {
    const text = formatErrorDetails({
      message: 'Insufficient funds',
      solution: 'Add SOL to your wallet.',
      component: 'GetTicketTab',
      file: 'src/views/ticket/GetTicketTab.tsx',
      timestamp: Date.UTC(2025, 10, 1, 12, 0, 0),
      location: 'http://127.0.0.1/',
      stack: 'Error: Insufficient funds\n    at pay',
    });
    expect(text).toBe(
      [
        'Error Details',
        'Message: Insufficient funds',
        'Solution: Add SOL to your wallet.',
        'Component: GetTicketTab',
        'File: src/views/ticket/GetTicketTab.tsx',
        'Time: 2025-11-01T12:00:00.000Z',
        'Location: http://127.0.0.1/',
        'Stack trace:\nError: Insufficient funds\n    at pay',
      ].join('\n'),
    );
  });
});
