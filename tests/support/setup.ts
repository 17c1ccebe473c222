/**
 * Vitest setup of both projects: jest-dom matchers everywhere, and in DOM tests (happy-dom,
 * opted in per file) Testing Library's cleanup after each test so every test renders into a
 * fresh document.
 */
import '@testing-library/jest-dom/vitest';
import { afterEach } from 'vitest';
import { turnInvitationRuleOffForEarlierTests } from './invitationRuleOff';

turnInvitationRuleOffForEarlierTests();

if (typeof document !== 'undefined') {
  const { cleanup } = await import('@testing-library/react');
  afterEach(() => {
    cleanup();
  });
}
