/**
 * The Error Detected modal (§2, §3 Error modal) and the global handler's input (§8).
 * One service, systemId `errorModal` (SYSTEM_IDS.errorModal).
 *
 * Other flows open the modal directly, e.g. the payment machine on a wallet error:
 *
 *   enqueueActions((queue) => sendToService(queue, SYSTEM_IDS.errorModal, {
 *     type: 'errorModal.open',
 *     message: 'Phantom wallet not detected',
 *     solution: 'Install the Phantom extension, then try again.',
 *     component: 'GetTicketTab',
 *     file: 'src/views/ticket/GetTicketTab.tsx',
 *   }))
 *
 * Anything thrown and not handled reaches the global handler (src/platform/errors.ts), which sends
 * `error.reported` with an ErrorReport; the machine classifies it (classifyError) and shows the
 * modal, a warning in the information banner, or only logs it.
 */

/** Placeholders meaning "not known"; the modal hides the component and file lines when they equal these. */
export const UNKNOWN_COMPONENT = 'Unknown component';
export const UNKNOWN_FILE = 'Unknown file';

/** Fallback message of §8 when neither the response nor the error carries one. */
export const UNEXPECTED_ERROR = 'An unexpected error occurred';

/** §3 Error modal info {message, solution, component, file, timestamp, location}, plus the optional stack. */
export type ErrorInfo = {
  message: string;
  solution: string;
  component: string;
  file: string;
  /** Epoch milliseconds of the error. */
  timestamp: number;
  /** The page address where it happened. */
  location: string;
  stack: string;
};

/** Payload of `errorModal.open` (all but `message` optional). */
export type ErrorModalOpenPayload = {
  message: string;
  solution?: string;
  component?: string;
  file?: string;
  stack?: string;
  location?: string;
  /** Epoch milliseconds; the time of receipt when absent. */
  timestamp?: number;
};

/**
 * What the global handler knows about a thrown value, normalised in src/ (errors.ts).
 * Message precedence (§8): responseMessage, then errorMessage, then UNEXPECTED_ERROR.
 */
export type ErrorReport = {
  /** `response.data.message` of a failed call, when present. */
  responseMessage?: string;
  /** The error's own message. */
  errorMessage?: string;
  /** HTTP status of a failed call. */
  status?: number;
  /** Path or URL of the failed call or resource (for the legacy /keys/ case). */
  path?: string;
  stack?: string;
  component?: string;
  file?: string;
  location?: string;
  timestamp?: number;
};

/** The decision of classifyError. */
export type ErrorOutcome =
  | { kind: 'modal'; message: string; solution: string }
  | { kind: 'warning'; message: string }
  | { kind: 'logOnly'; message: string };

export type ErrorModalEvent =
  /** Intent: show the modal with this error (e.g. payment's wallet errors). */
  | ({ type: 'errorModal.open' } & ErrorModalOpenPayload)
  /** Intent: close the modal (Close button, backdrop click, Escape). */
  | { type: 'errorModal.close' }
  /** Intent: copy the error details to the clipboard ("Copied!" for 2 s). */
  | { type: 'errorModal.copyDetails' }
  /** Fact: the global handler caught an error or unhandled rejection. */
  | { type: 'error.reported'; report: ErrorReport };

export type ErrorModalContext = {
  info: ErrorInfo | null;
};

/** Parameters of the provided `logError` action (console in the browser). */
export type LogErrorParams = { message: string; report: ErrorReport };
