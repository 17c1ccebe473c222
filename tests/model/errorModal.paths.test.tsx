// @vitest-environment happy-dom
import { act, fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createActor, createMachine, fromPromise, type ActorRefFrom } from 'xstate';
import { copyFeedbackMachine } from '../../machines/copyFeedback/copyFeedback.machine';
import { selectIsCopied } from '../../machines/copyFeedback/copyFeedback.selectors';
import { classifyError } from '../../machines/errorModal/classifyError';
import { errorModalMachine } from '../../machines/errorModal/errorModal.machine';
import * as errorSel from '../../machines/errorModal/errorModal.selectors';
import type {
  ErrorModalOpenPayload,
  ErrorReport,
  LogErrorParams,
} from '../../machines/errorModal/errorModal.types';
import { notificationsMachine } from '../../machines/notifications/notifications.machine';
import { SYSTEM_IDS } from '../../machines/systemIds';
import { ErrorModal } from '../../src/views/overlays/ErrorModal';
import { InformationBanner } from '../../src/views/overlays/InformationBanner';
import {
  checkModelProperty,
  defineModel,
  settle,
  specExpect,
  systemDriver,
  testPaths,
  withView,
  type Executors,
} from '../support/paths';
import { SPEC_MESSAGES } from '../support/oracle';
import { SPEC_TRANSITIONS } from '../support/specTransitions';

/**
 * §8 global handler, report by report: what the player must see, written from the spec's words
 * (not from classifyError). `modal`: the message shown, `solution`: what the solution must say;
 * `banner`: the warning shown instead; neither: only logged.
 */
type HandlerCase = {
  report: ErrorReport;
  modal?: string | RegExp;
  solution?: RegExp;
  banner?: RegExp;
};
const HANDLER_CASES: HandlerCase[] = [
  {
    // 'Failed to load session' (check connection and retry).
    report: {
      errorMessage: 'Failed to load session',
      stack: 'Error: Failed to load session\n    at init',
      component: 'SessionProvider',
      file: 'src/app/SessionProvider.tsx',
      location: 'https://example.test/docs/intro',
      timestamp: Date.UTC(2025, 10, 20, 9, 2, 0),
    },
    modal: 'Failed to load session',
    solution: /connection.*try again/i,
  },
  // 'Provider not available' (warning 'Web3 provider not available', advising to install a wallet).
  {
    report: { errorMessage: 'Provider not available' },
    banner: /^Web3 provider not available\b.*install.*wallet/i,
  },
  // 'Deprecation warning' is only logged.
  { report: { errorMessage: 'Deprecation warning: old call' } },
  // Precedence: the response data message, then the error message, then the fallback.
  {
    report: {
      responseMessage: 'Ticket sales are paused',
      errorMessage: 'Request failed',
      status: 409,
      component: ' ',
      file: '\t',
    },
    modal: 'Ticket sales are paused',
  },
  { report: {}, modal: SPEC_MESSAGES.unexpected },
  // Blank messages count as none: the fallback.
  { report: { responseMessage: '  ', errorMessage: ' \n' }, modal: SPEC_MESSAGES.unexpected },
  { report: { responseMessage: '', errorMessage: 'Pool is closed' }, modal: 'Pool is closed' },
  // 404: '404: Resource not found'; a legacy /keys/ path points to /agents/.
  {
    report: { errorMessage: 'Request failed', status: 404, path: '/keys/list' },
    modal: SPEC_MESSAGES.notFound,
    solution: /\/agents\//,
  },
  // The legacy path named only in the message; a 404 elsewhere does not point to /agents/.
  {
    report: { errorMessage: 'GET /keys/mine failed with status 404' },
    modal: SPEC_MESSAGES.notFound,
    solution: /\/agents\//,
  },
  {
    report: { errorMessage: 'Request failed', status: 404, path: '/users/me' },
    modal: SPEC_MESSAGES.notFound,
    solution: /^(?![\s\S]*agents)[\s\S]+$/,
  },
  // 'Expired version' (hint to reload).
  {
    report: { errorMessage: SPEC_MESSAGES.expiredVersion('0.2.0') },
    modal: SPEC_MESSAGES.expiredVersion('0.2.0'),
    solution: /reload/i,
  },
  // Reading a property of undefined: a developer-style data-structure message.
  // The same error as other engines word it.
  ...[
    "Cannot read properties of undefined (reading 'user')",
    "Cannot read property 'user' of undefined",
    "TypeError: Cannot read property '' of undefined",
    "undefined is not an object (evaluating 'session.user')",
  ].map((errorMessage) => ({
    report: { errorMessage },
    modal: /data structure/i,
    solution: /./,
  })),
];
const caseOf = (report: ErrorReport): HandlerCase => {
  const found = HANDLER_CASES.find((c) => c.report === report);
  if (!found) throw new Error('a report outside HANDLER_CASES');
  return found;
};

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
        stack: 'Error: Insufficient funds\n    at pay',
        location: 'https://example.test/',
        timestamp: Date.UTC(2025, 10, 20, 9, 0, 0),
      },
      // Blank component and file are unknown: their lines are hidden.
      {
        message: 'Failed to refresh balance',
        component: '  ',
        file: '',
        timestamp: Date.UTC(2025, 10, 20, 9, 1, 0),
      },
    ],
    'errorModal.close': [{}],
    'errorModal.copyDetails': [{}],
    // Three cases walk the chart (modal, banner, log only); every case is checked below.
    'error.reported': HANDLER_CASES.slice(0, 3).map(({ report }) => ({ report })),
  },
});

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
  return { root, modal, notifications, logs, copied, expected: null as Expected | null };
}
/** What the modal must show, from the spec (null: nothing). */
type Expected = {
  message: string | RegExp;
  solution: string | RegExp;
  component?: string;
  file?: string;
  stack?: string;
  location?: string;
  timestamp?: number;
};
type Ctx = ReturnType<typeof setupSystem>;

/** Each reported error is logged once; a warning reaches the banner; a modal case is expected. */
const reportEffects = (
  ctx: Ctx,
  event: Extract<Parameters<typeof ctx.modal.send>[0], { type: 'error.reported' }>,
  logsBefore: number,
) => {
  expect(ctx.logs, '§8 the global handler logs every error').toHaveLength(logsBefore + 1);
  const spec = caseOf(event.report);
  const log = ctx.logs.at(-1);
  expect(log?.report, 'the report is logged as received').toBe(event.report);
  textIs(log?.message ?? '', spec.modal ?? spec.banner ?? event.report.errorMessage ?? '');
  const banner = ctx.notifications.getSnapshot().context.information;
  if (spec.banner) {
    specExpect('§8.global.handler', banner?.messageType, 'the banner type').toBe('warning');
    specExpect('§8.global.handler', banner?.message, 'the banner message').toMatch(spec.banner);
  }
  if (spec.modal) {
    const { stack, timestamp, component, file, location } = event.report;
    ctx.expected = {
      message: spec.modal,
      solution: spec.solution ?? '',
      ...(stack ? { stack } : {}),
      ...(location ? { location } : {}),
      ...(timestamp ? { timestamp } : {}),
      ...(component?.trim() ? { component } : {}),
      ...(file?.trim() ? { file } : {}),
    };
  }
};

const openEffects = (ctx: Ctx, event: ErrorModalOpenPayload) => {
  ctx.expected = {
    message: event.message,
    solution: event.solution ?? '',
    ...(event.component?.trim() ? { component: event.component } : {}),
    ...(event.file?.trim() ? { file: event.file } : {}),
    ...(event.stack ? { stack: event.stack } : {}),
    ...(event.location ? { location: event.location } : {}),
    ...(event.timestamp ? { timestamp: event.timestamp } : {}),
  };
};

/** An ISO 8601 UTC time, as the modal and the summary show an error's time. */
const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

const textIs = (actual: string, expected: string | RegExp) =>
  typeof expected === 'string' ? expect(actual).toBe(expected) : expect(actual).toMatch(expected);

/**
 * §2 "Copy Error Details copies a text summary": a heading, then one `Label: value` line for each
 * field the error has (the placeholders when the component or file is unknown), the stack last.
 */
function expectSummary(text: string, expected: Expected) {
  const lines = text.split('\n');
  const next = (label: string): string => {
    const line = lines.shift() ?? '';
    expect(line.startsWith(`${label}: `), `summary line "${label}: …" (got "${line}")`).toBe(true);
    return line.slice(label.length + 2);
  };
  expect(lines.shift(), 'summary heading').toBe('Error Details');
  textIs(next('Message'), expected.message);
  if (expected.solution !== '') textIs(next('Solution'), expected.solution);
  expect(next('Component')).toBe(expected.component ?? 'Unknown component');
  expect(next('File')).toBe(expected.file ?? 'Unknown file');
  const time = next('Time');
  if (expected.timestamp !== undefined)
    expect(time).toBe(new Date(expected.timestamp).toISOString());
  else expect(time).toMatch(ISO_TIME);
  if (expected.location) expect(next('Location')).toBe(expected.location);
  if (expected.stack) {
    expect(lines.shift()).toBe('Stack trace:');
    expect(lines.join('\n')).toBe(expected.stack);
  } else expect(lines, 'nothing after the last field').toEqual([]);
}

/** §2 Error Detected modal, through the selectors the view reads. */
function expectShown(ctx: Ctx) {
  const s = ctx.modal.getSnapshot();
  const expected = ctx.expected;
  expect(expected, 'the modal shows only after an error').not.toBeNull();
  if (!expected) return;
  expect(errorSel.selectErrorModalOpen(s)).toBe(true);
  textIs(errorSel.selectErrorMessage(s), expected.message);
  textIs(errorSel.selectErrorSolution(s), expected.solution);
  // Component and file are hidden when they equal the unknown placeholders.
  expect(errorSel.selectErrorComponent(s)).toBe(expected.component ?? '');
  expect(errorSel.selectErrorFile(s)).toBe(expected.file ?? '');
  expect(errorSel.selectErrorStack(s)).toBe(expected.stack ?? '');
  if (expected.timestamp !== undefined)
    expect(errorSel.selectErrorTime(s)).toBe(new Date(expected.timestamp).toISOString());
  expect(errorSel.selectCopyFeedbackRef(s), 'Copy Error Details is ready').toBeDefined();
}

function expectHidden(ctx: Ctx) {
  const s = ctx.modal.getSnapshot();
  expect(ctx.expected, 'hidden only when nothing is to be shown').toBeNull();
  expect(errorSel.selectErrorModalOpen(s)).toBe(false);
  for (const select of [
    errorSel.selectErrorMessage,
    errorSel.selectErrorSolution,
    errorSel.selectErrorComponent,
    errorSel.selectErrorFile,
    errorSel.selectErrorStack,
    errorSel.selectErrorTime,
  ])
    expect(select(s), `${select.name} while hidden`).toBe('');
  expect(errorSel.selectCopyFeedbackRef(s)).toBeUndefined();
}

const actorEvents = {
  'errorModal.open': ({ ctx, event }) => {
    ctx.modal.send(event);
    openEffects(ctx, event);
  },
  'errorModal.close': ({ ctx, event }) => {
    ctx.modal.send(event);
    ctx.expected = null;
  },
  'errorModal.copyDetails': async ({ ctx, event }) => {
    const before = ctx.copied.length;
    ctx.modal.send(event);
    await settle();
    expect(ctx.copied).toHaveLength(before + 1);
    if (ctx.expected) expectSummary(ctx.copied.at(-1) ?? '', ctx.expected);
    const feedback = errorSel.selectCopyFeedbackRef(ctx.modal.getSnapshot());
    expect(feedback && selectIsCopied(feedback.getSnapshot())).toBe(true);
  },
  'error.reported': ({ ctx, event }) => {
    const before = ctx.logs.length;
    ctx.modal.send(event);
    reportEffects(ctx, event, before);
  },
} satisfies Executors<typeof model, Ctx>;

const actorDriver = systemDriver(
  model,
  { live: ({ modal }) => modal, root: ({ root }) => root },
  {
    setup: setupSystem,
    events: actorEvents,
    clauses: {
      '*': ['§4.errorModal.shown'],
      hidden: ['§4.errorModal.shown'],
      shown: ['§2.errorModal.show', '§8.global.handler'],
    },
    states: {
      // The record (ctx.expected, kept by the executors from §8's cases) decides, not the chart.
      '*': ({ ctx }) => (ctx.expected ? expectShown(ctx) : expectHidden(ctx)),
      hidden: ({ ctx }) => expectHidden(ctx),
      shown: ({ ctx }) => expectShown(ctx),
    },
  },
);

testPaths(model, actorDriver);

describe('§8 global handler, case by case', () => {
  for (const spec of HANDLER_CASES) {
    it(`${JSON.stringify(spec.report).slice(0, 80)} → ${spec.modal ? 'modal' : spec.banner ? 'banner' : 'log only'}`, () => {
      const ctx = setupSystem();
      try {
        const event = { type: 'error.reported' as const, report: spec.report };
        ctx.modal.send(event);
        reportEffects(ctx, event, 0);
        if (spec.modal) expectShown(ctx);
        else expectHidden(ctx);
        if (!spec.banner)
          expect(ctx.notifications.getSnapshot().context.information, 'no banner').toBeNull();
      } finally {
        ctx.root.stop();
      }
    });
  }
});

// The same paths through the rendered modal and banner.
const viewEvents = {
  ...actorEvents,
  'errorModal.open': ({ ctx, event }) => {
    act(() => void ctx.modal.send(event));
    openEffects(ctx, event);
  },
  'error.reported': ({ ctx, event }) => {
    const before = ctx.logs.length;
    act(() => void ctx.modal.send(event));
    reportEffects(ctx, event, before);
  },
  'errorModal.close': ({ ctx }) => {
    act(() => {
      fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    });
    ctx.expected = null;
  },
  'errorModal.copyDetails': async ({ ctx }) => {
    const before = ctx.copied.length;
    await act(async () => {
      fireEvent.click(screen.getByTestId('copy-error-details'));
      await settle();
    });
    expect(ctx.copied).toHaveLength(before + 1);
    if (ctx.expected) expectSummary(ctx.copied.at(-1) ?? '', ctx.expected);
    expect(screen.getByTestId('copy-error-details').textContent).toBe('Copied!');
  },
} satisfies Executors<typeof model, Ctx>;

/** What the player sees, against the test's own record of what the spec says must show. */
const checkModal = (ctx: Ctx) => {
  const expected = ctx.expected;
  if (!expected) {
    expect(screen.queryByRole('dialog')).toBeNull();
    return;
  }
  expect(screen.getByRole('dialog', { name: 'Error Detected' })).toBeInTheDocument();
  textIs(screen.getByTestId('error-message').textContent ?? '', expected.message);
  const solution = screen.queryByTestId('error-solution');
  if (expected.solution === '') expect(solution).toBeNull();
  else if (typeof expected.solution === 'string')
    expect(solution?.textContent).toContain(expected.solution);
  else expect(solution?.textContent).toMatch(expected.solution);
  // Component and file lines only when known.
  const component = screen.queryByTestId('error-component');
  if (expected.component) expect(component?.textContent).toBe(expected.component);
  else expect(component).toBeNull();
  const file = screen.queryByTestId('error-file');
  if (expected.file) expect(file?.textContent).toBe(expected.file);
  else expect(file).toBeNull();
  if (expected.stack) expect(screen.getByText('Stack trace')).toBeInTheDocument();
  else expect(screen.queryByText('Stack trace')).toBeNull();
  const time = screen.getByTestId('error-time').textContent;
  if (expected.timestamp !== undefined)
    expect(time).toBe(new Date(expected.timestamp).toISOString());
  else expect(time).toMatch(ISO_TIME);
};

/** The actor's setup, then the views that read it, rendered. */
const renderedView = withView(setupSystem, (ctx) => (
  <>
    <ErrorModal actor={ctx.modal} />
    <InformationBanner actor={ctx.notifications} />
  </>
));

const viewDriver = systemDriver(
  model,
  { live: ({ modal }) => modal, root: ({ root }) => root },
  {
    setup: renderedView,
    events: viewEvents,
    states: { '*': ({ ctx }) => checkModal(ctx) },
  },
);

testPaths(model, viewDriver, 'view');

it('the modal shows exactly when it holds an error, and never for a warning or a deprecation', () => {
  checkModelProperty('errorModal: shown iff info', model, {
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
