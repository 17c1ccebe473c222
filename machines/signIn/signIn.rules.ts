/** Pure rules of the sign-in flow (§5), shared by the chart, its selectors and the tests. */
import { SIGN_IN_CODE_LENGTH } from '../../contract/spec';

const EMAIL = /^\S+@\S+\.\S+$/;

/** §5: non-space text, an @, text, a dot, text. */
export function isValidEmail(email: string): boolean {
  return EMAIL.test(email.trim());
}

export function emptyDigits(): string[] {
  // Stryker disable next-line ArrowFunction: an undefined box reads as empty everywhere (selectDigit, join)
  return Array.from({ length: SIGN_IN_CODE_LENGTH }, () => '');
}

export function isDigit(value: string): boolean {
  return /^[0-9]$/.test(value);
}

export function isBoxIndex(index: number): boolean {
  return Number.isInteger(index) && index >= 0 && index < SIGN_IN_CODE_LENGTH;
}

/** The digits of a pasted text (or a development `sign_code`), spread over the boxes. */
export function digitsFromText(text: string): string[] {
  // Stryker disable next-line MethodExpression: only the first six are spread over the boxes either way
  const found = text
    .replace(/[^0-9]/g, '')
    .slice(0, SIGN_IN_CODE_LENGTH)
    .split('');
  return emptyDigits().map((_, i) => found[i] ?? '');
}

/** §5: the code must be exactly six digits. */
export function isSixDigitCode(digits: readonly string[]): boolean {
  return digits.length === SIGN_IN_CODE_LENGTH && digits.every(isDigit);
}
