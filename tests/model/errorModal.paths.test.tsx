// @vitest-environment happy-dom
import { act, fireEvent, render, screen } from '@testing-library/react';
import { expect, it } from 'vitest';
import {
  createActor,
  createMachine,
  fromPromise,
  type ActorRefFrom,
  type SnapshotFrom,
} from 'xstate';
import { copyFeedbackMachine } from '../../machines/copyFeedback/copyFeedback.machine';
import { selectIsCopied } from '../../machines/copyFeedback/copyFeedback.selectors';
import { classifyError, ERROR_TEXT } from '../../machines/errorModal/classifyError';
import { errorModalMachine } from '../../machines/errorModal/errorModal.machine';
import { selectCopyFeedbackRef } from '../../machines/errorModal/errorModal.selectors';
import type { LogErrorParams } from '../../machines/errorModal/errorModal.types';
import { notificationsMachine } from '../../machines/notifications/notifications.machine';
import { SYSTEM_IDS } from '../../machines/systemIds';
import { ErrorModal } from '../../src/views/overlays/ErrorModal';
import { InformationBanner } from '../../src/views/overlays/InformationBanner';
import {
  checkProperty,
  defineModel,
  settle,
  testPaths,
  type Driver,
  type Executors,
} from '../support/paths';
import { SPEC_TRANSITIONS } from '../support/specTransitions';

const model = defineModel({
  name: 'errorModal',
  // The log-only and warning branches of error.reported both leave `hidden` and the context
  // as they were: keyed by transition, each gets a path of its own.
  paths: { simple: false, byTransition: true },
  machine: errorModalMachine,
  required: SPEC_TRANSITIONS.errorModal,
  events: {
    'errorModal.open': [
      {
        message: 'Insufficient funds',
        solution: 'Add SOL to your wallet and try again.',
        component: 'GetTicketTab',
        file: 'src/views/ticket/GetTicketTab.tsx',
        timestamp: Date.UTC(2025, 10, 20, 9, 0, 0),
      },
      { message: 'Failed to refresh balance', timestamp: Date.UTC(2025, 10, 20, 9, 1, 0) },
    ],
    'errorModal.close': [{}],
    'errorModal.copyDetails': [{}],
    'error.reported': [
      {
        report: {
          errorMessage: 'Failed to load session',
          stack: 'Error: Failed to load session\n    at init',
          timestamp: Date.UTC(2025, 10, 20, 9, 2, 0),
        },
      },
      { report: { errorMessage: 'Provider not available' } },
      { report: { errorMessage: 'Deprecation warning: old call' } },
    ],
  },
});

type Snapshot = SnapshotFrom<typeof errorModalMachine>;

/** errorModal and notifications side by side (the warning goes to the banner), fakes provided. */
function setupSystem() {
  const logs: LogErrorParams[] = [];
  const copied: string[] = [];
  const root = createActor(
    createMachine({
      invoke: [
        {
          id: 'errorModal',
          systemId: SYSTEM_IDS.errorModal,
          src: errorModalMachine.provide({
            actions: { logError: (_, params) => void logs.push(params) },
            actors: {
              copyFeedback: copyFeedbackMachine.provide({
                actors: {
                  writeClipboard: fromPromise(async ({ input }) => void copied.push(input.text)),
                },
              }),
            },
          }),
        },
        {
          id: 'notifications',
          systemId: SYSTEM_IDS.notifications,
          src: notificationsMachine,
          input: {},
        },
      ],
    }),
  );
  root.start();
  const modal = root.system.get(SYSTEM_IDS.errorModal) as ActorRefFrom<typeof errorModalMachine>;
  const notifications = root.system.get(SYSTEM_IDS.notifications) as ActorRefFrom<
    typeof notificationsMachine
  >;
  return { root, modal, notifications, logs, copied };
}
type Ctx = ReturnType<typeof setupSystem>;

const sameInfo = (ctx: Ctx, snapshot: Snapshot) =>
  expect(ctx.modal.getSnapshot().context.info).toEqual(snapshot.context.info);

/** Each reported error is logged once; warnings reach the banner, nothing else does. */
const reportEffects = (
  ctx: Ctx,
  event: Extract<Parameters<typeof ctx.modal.send>[0], { type: 'error.reported' }>,
  logsBefore: number,
) => {
  expect(ctx.logs).toHaveLength(logsBefore + 1);
  const outcome = classifyError(event.report);
  const banner = ctx.notifications.getSnapshot().context.information;
  if (outcome.kind === 'warning')
    expect(banner).toEqual({ message: ERROR_TEXT.providerWarning, messageType: 'warning' });
};

const actorEvents = {
  'errorModal.open': ({ ctx, event }) => ctx.modal.send(event),
  'errorModal.close': ({ ctx, event }) => ctx.modal.send(event),
  'errorModal.copyDetails': async ({ ctx, event }) => {
    const before = ctx.copied.length;
    ctx.modal.send(event);
    await settle();
    expect(ctx.copied).toHaveLength(before + 1);
    expect(ctx.copied.at(-1)).toContain(
      `Message: ${ctx.modal.getSnapshot().context.info?.message}`,
    );
    const feedback = selectCopyFeedbackRef(ctx.modal.getSnapshot());
    expect(feedback && selectIsCopied(feedback.getSnapshot())).toBe(true);
  },
  'error.reported': ({ ctx, event }) => {
    const before = ctx.logs.length;
    ctx.modal.send(event);
    reportEffects(ctx, event, before);
  },
} satisfies Executors<typeof model, Ctx>;

const actorDriver: Driver<typeof model, Ctx> = {
  setup: setupSystem,
  teardown: ({ root }) => {
    root.stop();
  },
  actual: ({ modal }) => modal.getSnapshot(),
  events: actorEvents,
  states: {
    hidden: ({ ctx, snapshot }) => {
      sameInfo(ctx, snapshot);
      expect(selectCopyFeedbackRef(ctx.modal.getSnapshot())).toBeUndefined();
    },
    shown: ({ ctx, snapshot }) => sameInfo(ctx, snapshot),
  },
};

testPaths(model, actorDriver);

// The same paths through the rendered modal and banner.
const viewEvents = {
  ...actorEvents,
  'errorModal.open': ({ ctx, event }) => act(() => void ctx.modal.send(event)),
  'error.reported': ({ ctx, event }) => {
    const before = ctx.logs.length;
    act(() => void ctx.modal.send(event));
    reportEffects(ctx, event, before);
  },
  'errorModal.close': () => {
    act(() => {
      fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    });
  },
  'errorModal.copyDetails': async ({ ctx }) => {
    const before = ctx.copied.length;
    await act(async () => {
      fireEvent.click(screen.getByTestId('copy-error-details'));
      await settle();
    });
    expect(ctx.copied).toHaveLength(before + 1);
    expect(screen.getByTestId('copy-error-details').textContent).toBe('Copied!');
  },
} satisfies Executors<typeof model, Ctx>;

const checkModal = (ctx: Ctx, snapshot: Snapshot) => {
  const info = snapshot.context.info;
  if (!snapshot.matches('shown') || !info) {
    expect(screen.queryByRole('dialog')).toBeNull();
    return;
  }
  expect(screen.getByRole('dialog', { name: 'Error Detected' })).toBeInTheDocument();
  expect(screen.getByTestId('error-message').textContent).toBe(info.message);
  if (info.solution)
    expect(screen.getByTestId('error-solution').textContent).toContain(info.solution);
  else expect(screen.queryByTestId('error-solution')).toBeNull();
  const component = screen.queryByTestId('error-component');
  if (info.component === 'Unknown component') expect(component).toBeNull();
  else expect(component?.textContent).toBe(info.component);
  const file = screen.queryByTestId('error-file');
  if (info.file === 'Unknown file') expect(file).toBeNull();
  else expect(file?.textContent).toBe(info.file);
  if (info.stack) expect(screen.getByText('Stack trace')).toBeInTheDocument();
  else expect(screen.queryByText('Stack trace')).toBeNull();
  expect(screen.getByTestId('error-time').textContent).toBe(new Date(info.timestamp).toISOString());
  void ctx;
};

const viewDriver: Driver<typeof model, Ctx> = {
  setup: () => {
    const ctx = setupSystem();
    render(
      <>
        <ErrorModal actor={ctx.modal} />
        <InformationBanner actor={ctx.notifications} />
      </>,
    );
    return ctx;
  },
  teardown: ({ root }) => {
    root.stop();
  },
  actual: ({ modal }) => modal.getSnapshot(),
  events: viewEvents,
  states: { '*': ({ ctx, snapshot }) => checkModal(ctx, snapshot) },
};

testPaths(model, viewDriver, 'view');

it('the modal shows exactly when it holds an error, and never for a warning or a deprecation', () => {
  checkProperty('errorModal: shown iff info', {
    machine: errorModalMachine,
    events: model.events.map((e) => e.event),
    maxEvents: 30,
    invariant: ({ snapshot, previous, event }) =>
      snapshot.matches('shown') === (snapshot.context.info !== null) &&
      !(
        event?.type === 'error.reported' &&
        classifyError(event.report).kind !== 'modal' &&
        snapshot.context.info !== (previous?.context.info ?? null)
      ),
  });
});
