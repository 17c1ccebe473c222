import { describe, expect, it } from 'vitest';
import { sessionMachine } from '../../../machines/session/session.machine';
import { sessionPlan } from '../../../machines/session/session.plan';

describe('the session plan the head walks, read from the chart', () => {
  it('names every step, its call, and the branches of its answer and its failure (§4 Session)', () => {
    expect(sessionPlan(sessionMachine)).toEqual({
      initial: 'initializing',
      loaded: 'loaded',
      steps: {
        initializing: {
          call: 'sessInit',
          done: [
            { guard: 'isOtherVersion', to: 'failed' },
            { guard: 'hasStoredSessionToken', to: 'loadingSession' },
            { guard: null, to: 'creatingSession' },
          ],
          error: [{ guard: null, to: 'failed' }],
        },
        loadingSession: {
          call: 'sessLoad',
          done: [
            { guard: 'hasJwt', to: 'loadingUser' },
            { guard: null, to: 'loaded' },
          ],
          error: [{ guard: null, to: 'creatingSession' }],
        },
        creatingSession: {
          call: 'sessCreate',
          done: [
            { guard: 'hasJwt', to: 'loadingUser' },
            { guard: null, to: 'loaded' },
          ],
          error: [{ guard: null, to: 'failed' }],
        },
        loadingUser: {
          call: 'userData',
          done: [{ guard: null, to: 'loaded' }],
          error: [
            { guard: 'isAuthFailure', to: 'loaded' },
            { guard: null, to: 'failed' },
          ],
        },
      },
    });
  });
});
