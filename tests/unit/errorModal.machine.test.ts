import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, createMachine, fromPromise, type ActorRefFrom } from 'xstate';
import { copyFeedbackMachine } from '../../machines/copyFeedback/copyFeedback.machine';
import { selectIsCopied } from '../../machines/copyFeedback/copyFeedback.selectors';
import { ERROR_TEXT } from '../../machines/errorModal/classifyError';
import { errorModalMachine } from '../../machines/errorModal/errorModal.machine';
import * as errorSel from '../../machines/errorModal/errorModal.selectors';
import type { LogErrorParams } from '../../machines/errorModal/errorModal.types';
import { notificationsMachine } from '../../machines/notifications/notifications.machine';
import {
  selectBannerMessage,
  selectBannerType,
} from '../../machines/notifications/notifications.selectors';
import { SYSTEM_IDS } from '../../machines/systemIds';

/** A system like the app's: errorModal and notifications side by side, with fakes provided. */
const startSystem = () => {
  const logs: LogErrorParams[] = [];
  const copied: string[] = [];
  const errorModal = errorModalMachine.provide({
    actions: { logError: (_, params) => void logs.push(params) },
    actors: {
      copyFeedback: copyFeedbackMachine.provide({
        actors: { writeClipboard: fromPromise(async ({ input }) => void copied.push(input.text)) },
      }),
    },
  });
  const root = createActor(
    createMachine({
      invoke: [
        { id: 'errorModal', systemId: SYSTEM_IDS.errorModal, src: errorModal },
        { id: 'notifications', systemId: SYSTEM_IDS.notifications, src: notificationsMachine },
      ],
    }),
  ).start();
  const modal = root.system.get(SYSTEM_IDS.errorModal) as ActorRefFrom<typeof errorModalMachine>;
  const notifications = root.system.get(SYSTEM_IDS.notifications) as ActorRefFrom<
    typeof notificationsMachine
  >;
  return { modal, notifications, logs, copied };
};

describe('errorModal machine', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(Date.UTC(2025, 10, 20, 9, 30, 0));
  });
  afterEach(() => vi.useRealTimers());

  it('opens with message, solution, component and file from another flow; Close hides it [§2.errorModal.show]', () => {
    const { modal } = startSystem();
    modal.send({
      type: 'errorModal.open',
      message: 'Insufficient funds',
      solution: 'Add SOL to your wallet and try again.',
      component: 'GetTicketTab',
      file: 'src/views/ticket/GetTicketTab.tsx',
    });
    const s = modal.getSnapshot();
    expect(errorSel.selectErrorModalOpen(s)).toBe(true);
    expect(errorSel.selectErrorMessage(s)).toBe('Insufficient funds');
    expect(errorSel.selectErrorSolution(s)).toBe('Add SOL to your wallet and try again.');
    expect(errorSel.selectErrorComponent(s)).toBe('GetTicketTab');
    expect(errorSel.selectErrorFile(s)).toBe('src/views/ticket/GetTicketTab.tsx');
    expect(errorSel.selectErrorTime(s)).toBe('2025-11-20T09:30:00.000Z');
    modal.send({ type: 'errorModal.close' });
    expect(errorSel.selectErrorModalOpen(modal.getSnapshot())).toBe(false);
  });

  it('hides unknown component and file', () => {
    const { modal } = startSystem();
    modal.send({ type: 'errorModal.open', message: 'x' });
    expect(errorSel.selectErrorComponent(modal.getSnapshot())).toBe('');
    expect(errorSel.selectErrorFile(modal.getSnapshot())).toBe('');
  });

  it('a reported error is logged, then shown with the precedence and special cases', () => {
    const { modal, logs } = startSystem();
    modal.send({
      type: 'error.reported',
      report: {
        errorMessage: 'Failed to load session',
        stack: 'Error: Failed to load session\n  at init',
      },
    });
    const s = modal.getSnapshot();
    expect(logs.map((l) => l.message)).toEqual(['Failed to load session']);
    expect(errorSel.selectErrorModalOpen(s)).toBe(true);
    expect(errorSel.selectErrorMessage(s)).toBe('Failed to load session');
    expect(errorSel.selectErrorSolution(s)).toBe(ERROR_TEXT.sessionSolution);
    expect(errorSel.selectErrorStack(s)).toContain('at init');
  });

  it('Provider not available becomes a warning in the information banner, not the modal', () => {
    const { modal, notifications, logs } = startSystem();
    modal.send({ type: 'error.reported', report: { errorMessage: 'Provider not available' } });
    expect(errorSel.selectErrorModalOpen(modal.getSnapshot())).toBe(false);
    expect(selectBannerMessage(notifications.getSnapshot())).toBe(ERROR_TEXT.providerWarning);
    expect(selectBannerType(notifications.getSnapshot())).toBe('warning');
    expect(logs).toHaveLength(1);
  });

  it('Deprecation warning is only logged', () => {
    const { modal, notifications, logs } = startSystem();
    modal.send({
      type: 'error.reported',
      report: { errorMessage: 'Deprecation warning: old API' },
    });
    expect(errorSel.selectErrorModalOpen(modal.getSnapshot())).toBe(false);
    expect(selectBannerMessage(notifications.getSnapshot())).toBe('');
    expect(logs.map((l) => l.message)).toEqual(['Deprecation warning: old API']);
  });

  it('Copy Error Details writes the summary and shows Copied! for 2 s [§2.errorModal.copy]', async () => {
    const { modal, copied } = startSystem();
    modal.send({
      type: 'errorModal.open',
      message: 'Network connection failed',
      component: 'GetTicketTab',
    });
    modal.send({ type: 'errorModal.copyDetails' });
    await vi.advanceTimersByTimeAsync(0);
    expect(copied).toHaveLength(1);
    expect(copied[0]).toContain('Message: Network connection failed');
    expect(copied[0]).toContain('Component: GetTicketTab');
    const feedback = errorSel.selectCopyFeedbackRef(modal.getSnapshot());
    expect(feedback && selectIsCopied(feedback.getSnapshot())).toBe(true);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(feedback && selectIsCopied(feedback.getSnapshot())).toBe(false);
  });

  it('closing the modal stops the copy feedback', () => {
    const { modal } = startSystem();
    modal.send({ type: 'errorModal.open', message: 'x' });
    expect(errorSel.selectCopyFeedbackRef(modal.getSnapshot())).toBeDefined();
    modal.send({ type: 'errorModal.close' });
    expect(errorSel.selectCopyFeedbackRef(modal.getSnapshot())).toBeUndefined();
  });
});
