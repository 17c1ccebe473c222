import { UNKNOWN_COMPONENT, UNKNOWN_FILE, type ErrorInfo } from './errorModal.types';

/** The component line is shown only when known (a blank one is stored as the placeholder). */
export const isKnownComponent = (component: string): boolean => component !== UNKNOWN_COMPONENT;

/** The file line is shown only when known (a blank one is stored as the placeholder). */
export const isKnownFile = (file: string): boolean => file !== UNKNOWN_FILE;

/** The time of the error as the modal and the copied summary show it (UTC, ISO 8601). */
export const formatErrorTime = (timestamp: number): string => new Date(timestamp).toISOString();

/** The text `Copy Error Details` puts on the clipboard. */
export const formatErrorDetails = (info: ErrorInfo): string =>
  [
    'Error Details',
    `Message: ${info.message}`,
    info.solution ? `Solution: ${info.solution}` : '',
    `Component: ${info.component}`,
    `File: ${info.file}`,
    `Time: ${formatErrorTime(info.timestamp)}`,
    info.location ? `Location: ${info.location}` : '',
    info.stack ? `Stack trace:\n${info.stack}` : '',
  ]
    .filter((line) => line !== '')
    .join('\n');
