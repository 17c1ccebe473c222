import type { ErrorReport } from '../../machines/errorModal/errorModal.types';
import { isCallError, readFailure } from '../../machines/shared/callError';

/**
 * The global error handler's wiring (§8): uncaught errors and unhandled promise rejections are
 * normalised into an ErrorReport and sent to the errorModal service as `error.reported`, which
 * logs, classifies and shows the modal or a warning. The browser's own console report of an
 * unhandled rejection is replaced by ours (preventDefault), so each error is logged once.
 */
type Receiver = { send: (event: { type: 'error.reported'; report: ErrorReport }) => void };

type Clock = () => number;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

const stringAt = (value: unknown, ...keys: string[]): string | undefined => {
  let current: unknown = value;
  for (const key of keys) {
    if (!isRecord(current)) return undefined;
    current = current[key];
  }
  return typeof current === 'string' ? current : undefined;
};

const numberAt = (value: unknown, ...keys: string[]): number | undefined => {
  let current: unknown = value;
  for (const key of keys) {
    if (!isRecord(current)) return undefined;
    current = current[key];
  }
  return typeof current === 'number' ? current : undefined;
};

/**
 * What we can tell about any thrown value: the response's data message (`response.data.message`,
 * `data.message`, or the server's message of a failed call of the API client), the error's
 * message, an HTTP status, the failed call's URL or path, the stack.
 */
export function toErrorReport(thrown: unknown, extra: Partial<ErrorReport> = {}): ErrorReport {
  const report: ErrorReport = { ...extra };
  // A failed call of the site's API client: read as every machine reads it.
  const call = isCallError(thrown) ? readFailure(thrown) : {};
  const responseMessage =
    stringAt(thrown, 'response', 'data', 'message') ??
    stringAt(thrown, 'data', 'message') ??
    call.serverMessage;
  if (responseMessage) report.responseMessage = responseMessage;

  if (thrown instanceof Error) report.errorMessage = thrown.message;
  else if (typeof thrown === 'string') report.errorMessage = thrown;
  else {
    const message = stringAt(thrown, 'message');
    if (message) report.errorMessage = message;
  }

  const status = numberAt(thrown, 'response', 'status') ?? numberAt(thrown, 'status');
  if (status !== undefined) report.status = status;
  const path =
    stringAt(thrown, 'request', 'url') ??
    stringAt(thrown, 'response', 'url') ??
    stringAt(thrown, 'url') ??
    call.path;
  if (path) report.path = path;
  const stack = stringAt(thrown, 'stack');
  if (stack && !report.stack) report.stack = stack;
  return report;
}

/** Installs the window listeners; returns the uninstall. */
export function installGlobalErrorHandler(
  receiver: Receiver,
  target: Window = window,
  now: Clock = Date.now,
): () => void {
  const location = () => target.location?.href ?? '';

  const onError = (event: ErrorEvent) => {
    // Resource load failures (img, script) bubble here without an error object: not ours to show.
    if (!event.error && !event.message) return;
    const extra: Partial<ErrorReport> = { location: location(), timestamp: now() };
    if (event.filename) extra.file = event.filename;
    receiver.send({
      type: 'error.reported',
      report: toErrorReport(event.error ?? event.message, extra),
    });
  };

  const onRejection = (event: PromiseRejectionEvent) => {
    event.preventDefault();
    receiver.send({
      type: 'error.reported',
      report: toErrorReport(event.reason, { location: location(), timestamp: now() }),
    });
  };

  target.addEventListener('error', onError);
  target.addEventListener('unhandledrejection', onRejection);
  return () => {
    target.removeEventListener('error', onError);
    target.removeEventListener('unhandledrejection', onRejection);
  };
}

/** The `logError` implementation: the console, once per reported error. */
export function logErrorToConsole(message: string, report: ErrorReport): void {
  if (message.includes('Deprecation warning')) {
    console.warn(message);
    return;
  }
  console.error(`[error] ${message}`, report);
}
