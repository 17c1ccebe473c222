import { UNEXPECTED_ERROR, type ErrorOutcome, type ErrorReport } from './errorModal.types';

/** Messages of §8's special cases, kept together so tests and views read the same words. */
export const ERROR_TEXT = {
  expiredVersionSolution: 'Please reload the app to get the latest version.',
  sessionSolution: 'Please check your internet connection and try again.',
  undefinedProperty:
    'Data structure error: a property was read from an undefined value. The data received does not have the expected structure.',
  undefinedPropertySolution:
    'Check that the object exists (optional chaining or a guard) before reading its properties.',
  notFound: '404: Resource not found',
  notFoundSolution: 'Check the address and try again.',
  legacyKeysSolution:
    'This path is outdated: /keys/ has moved to /agents/. Please use the /agents/ path.',
  providerWarning:
    'Web3 provider not available. Please install a Solana wallet such as Phantom or Solflare.',
} as const;

const nonEmpty = (value: string | undefined): value is string =>
  typeof value === 'string' && value.trim() !== '';

/** §8 precedence: response data message, then the error's message, then the fallback. */
export const errorMessageOf = (report: ErrorReport): string =>
  nonEmpty(report.responseMessage)
    ? report.responseMessage
    : nonEmpty(report.errorMessage)
      ? report.errorMessage
      : UNEXPECTED_ERROR;

/**
 * Chromium ("Cannot read properties of undefined (reading 'x')"), older V8 ("Cannot read property
 * 'x' of undefined") and WebKit
 * ("undefined is not an object").
 */
const UNDEFINED_PROPERTY =
  /cannot read propert(?:y|ies) of undefined|cannot read property '[^']*' of undefined|undefined is not an object/i;

const isNotFound = (report: ErrorReport, message: string): boolean =>
  report.status === 404 || /\b404\b/.test(message) || /not found/i.test(message);

/**
 * The global handler's decision (§8): show the modal (type error) with a message and an optional
 * solution, show a warning in the information banner, or only log.
 */
export const classifyError = (report: ErrorReport): ErrorOutcome => {
  const message = errorMessageOf(report);

  if (message.includes('Deprecation warning')) return { kind: 'logOnly', message };
  if (message.includes('Provider not available')) {
    return { kind: 'warning', message: ERROR_TEXT.providerWarning };
  }
  if (message.includes('Expired version')) {
    return { kind: 'modal', message, solution: ERROR_TEXT.expiredVersionSolution };
  }
  if (message.includes('Failed to load session') || message.includes('Error loading session')) {
    return { kind: 'modal', message, solution: ERROR_TEXT.sessionSolution };
  }
  if (UNDEFINED_PROPERTY.test(message)) {
    return {
      kind: 'modal',
      message: ERROR_TEXT.undefinedProperty,
      solution: ERROR_TEXT.undefinedPropertySolution,
    };
  }
  if (isNotFound(report, message)) {
    const legacy = `${report.path ?? ''} ${message}`.includes('/keys/');
    return {
      kind: 'modal',
      message: ERROR_TEXT.notFound,
      solution: legacy ? ERROR_TEXT.legacyKeysSolution : ERROR_TEXT.notFoundSolution,
    };
  }
  return { kind: 'modal', message, solution: '' };
};
