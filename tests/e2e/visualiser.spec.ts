import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AnyStateMachine } from 'xstate';
import type { BrowserContext, Locator, Page } from '@playwright/test';
import { machineToChart } from '../../src/devtools/graph';
import { registerUser } from '../support/api';
import { expect, test } from '../support/e2e';
import { openSignedIn, replaySaved } from '../support/visualiser';

/**
 * The machine visualiser exists in development / local builds only: /__machines draws every
 * machine, highlights the live app's actors and runs a sandbox actor; production ships none of it.
 */
const ROOT = resolve(import.meta.dirname, '../..');
const SHOTS = join(ROOT, 'test-results/screenshots');
const MARKERS = ['smw-devtools-visualiser', 'smw-devtools-inspector', 'org.eclipse.elk'];

const machineNames = readdirSync(join(ROOT, 'machines'), { withFileTypes: true })
  .filter(
    (d) => d.isDirectory() && existsSync(join(ROOT, 'machines', d.name, `${d.name}.machine.ts`)),
  )
  .map((d) => d.name);

async function loadMachine(name: string): Promise<AnyStateMachine> {
  const file = join(ROOT, 'machines', name, `${name}.machine.ts`);
  const mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  return (mod[`${name}Machine`] ??
    Object.values(mod).find(
      (v) => typeof v === 'object' && v !== null && 'root' in v,
    )) as AnyStateMachine;
}

type RawTransition = string | { target?: string | string[] } | undefined;
type RawState = {
  states?: Record<string, RawState>;
  on?: Record<string, RawTransition | RawTransition[]>;
  after?: Record<string, RawTransition | RawTransition[]>;
  always?: RawTransition | RawTransition[];
  onDone?: RawTransition | RawTransition[];
  invoke?: {
    onDone?: RawTransition | RawTransition[];
    onError?: RawTransition | RawTransition[];
  }[];
};

/** Drawn edges of one transition (or a list of guarded ones): one per target, a self-loop if none. */
function edgesOf(t: RawTransition | RawTransition[] | undefined): number {
  if (t === undefined) return 0;
  if (Array.isArray(t)) return t.reduce((n, one) => n + edgesOf(one), 0);
  const target = typeof t === 'string' ? t : t.target;
  return Array.isArray(target) ? Math.max(1, target.length) : 1;
}

/**
 * What the chart must show, counted from the machine's own config as written (not from the
 * drawing code under test): state nodes, root included, and one edge per transition target.
 */
function expectedCounts(config: RawState): { nodes: number; edges: number } {
  const invokes = config.invoke === undefined ? [] : [config.invoke].flat();
  let edges =
    Object.values(config.on ?? {}).reduce((n: number, t) => n + edgesOf(t), 0) +
    Object.values(config.after ?? {}).reduce((n: number, t) => n + edgesOf(t), 0) +
    edgesOf(config.always) +
    edgesOf(config.onDone) +
    invokes.reduce((n, i) => n + edgesOf(i.onDone) + edgesOf(i.onError), 0);
  let nodes = 1;
  for (const child of Object.values(config.states ?? {})) {
    const counts = expectedCounts(child);
    nodes += counts.nodes;
    edges += counts.edges;
  }
  return { nodes, edges };
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

function markersIn(dir: string): string[] {
  const found = new Set<string>();
  for (const file of filesUnder(dir).filter((f) => /\.(js|html|css)$/.test(f))) {
    const text = readFileSync(file, 'utf8');
    for (const marker of MARKERS) if (text.includes(marker)) found.add(marker);
  }
  return [...found];
}

test('every machine is drawn as a statechart at /__machines, with all its states', async ({
  page,
}) => {
  expect(machineNames.length).toBeGreaterThan(0);
  await page.goto('/__machines');
  await expect(page.getByRole('heading', { name: 'Machines', level: 1 })).toBeVisible();
  for (const name of machineNames) {
    const machine = await loadMachine(name);
    const chart = machineToChart(machine);
    const expected = expectedCounts(machine.config as RawState);
    const section = page.locator(`section[data-machine="${name}"]`);
    await expect(section.getByRole('heading', { name, level: 2 })).toBeVisible();
    const svg = section.locator(`svg[data-chart="${chart.id}"]`);
    await expect(svg).toBeVisible({ timeout: 15_000 });
    // Every state node of the chart (the root included) is drawn, and every transition.
    await expect(svg.locator('g.devtools-node')).toHaveCount(expected.nodes);
    await expect(svg.locator('g.devtools-edge')).toHaveCount(expected.edges);
  }
});

test("the site's live actors (another tab) are highlighted in their current state and events are listed", async ({
  page,
  context,
  watchPage,
}) => {
  test.setTimeout(90_000);
  const site = await context.newPage();
  await watchPage(site);
  await site.goto('/');
  await expect(site.getByRole('button', { name: 'Get Access' }).first()).toBeVisible();
  await page.goto('/__machines');
  const app = page.locator('section[data-machine="app"]');
  await expect(app.locator('.devtools-live button').first()).toBeVisible();
  // ELK lays out every chart on the page; give the first one time on a busy machine.
  await expect(app.locator('svg[data-chart="app"]')).toBeVisible({ timeout: 30_000 });
  // The root actor's boot is `loaded` once the session bootstrap answered.
  await expect(
    app.locator('g.devtools-node[data-active="true"][data-state-id="app.boot.loaded"]'),
  ).toHaveCount(1);
  await expect(app.locator('g.devtools-node[data-active="true"]')).not.toHaveCount(0);
  await site.getByRole('button', { name: 'Get Access' }).first().click();
  await expect(
    page.getByRole('complementary', { name: 'Last events' }).locator('li'),
  ).not.toHaveCount(0);
});

test('a sandbox actor takes the events it can take now, outcomes and delays included', async ({
  page,
}) => {
  await page.goto('/__machines#machine-copyFeedback');
  const section = page.locator('section[data-machine="copyFeedback"]');
  await section.getByRole('button', { name: 'Sandbox', exact: true }).click();
  const state = section.getByTestId('sandbox-state');
  await expect(state).toHaveText('"idle"');
  await expect(
    section.getByRole('button', { name: 'xstate.done.actor.writeClipboard' }),
  ).toHaveCount(0);
  await section.getByLabel('Event payload (JSON)').fill('{"text":"invite link"}');
  await section.getByRole('button', { name: 'copyFeedback.copy' }).click();
  await expect(state).toHaveText('"copying"');
  await section.getByRole('button', { name: 'xstate.done.actor.writeClipboard' }).click();
  await expect(state).toHaveText('"copied"');
  await section.getByRole('button', { name: /^xstate\.after\.copyFeedback\./ }).click();
  await expect(state).toHaveText('"idle"');
  await expect(
    section.locator('g.devtools-node[data-active="true"][data-state-id="copyFeedback.idle"]'),
  ).toHaveCount(1);
});

test('the production build (dist/) contains no visualiser, inspector or elkjs code', () => {
  const dist = join(ROOT, 'dist');
  const site = process.env.E2E_SITE_DIR ?? join(ROOT, '.local/e2e-site');
  expect(existsSync(join(dist, 'index.html')), 'dist/ is built by the e2e global setup').toBe(true);
  // The markers are real: the local-mode build does carry the visualiser.
  expect(markersIn(site).sort()).toEqual([...MARKERS].sort());
  expect(markersIn(dist)).toEqual([]);
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  expect(html).not.toContain('__machines');
});

test('clicking through sign-in in another tab moves the highlighted state in the visualiser', async ({
  page,
  context,
  watchPage,
}) => {
  test.setTimeout(90_000);
  await page.goto('/__machines');
  const section = page.locator('section[data-machine="signIn"]');
  await expect(section.locator('svg[data-chart="signIn"]')).toBeVisible({ timeout: 60_000 });

  // The site in a second tab of the same browser: a player opens the sign-in modal.
  const site = await context.newPage();
  await watchPage(site);
  await site.goto('/');
  await site.getByRole('button', { name: 'Get Access' }).first().click();
  const dialog = site.getByRole('dialog');
  await expect(dialog.getByRole('heading', { name: 'Sign In' })).toBeVisible();

  const other = section.getByRole('button', { name: /\(other tab\)$/ });
  await expect(other).toBeVisible();
  await other.click();
  const active = (id: string) => activeState(section, id);
  await expect(active('signIn.open.email')).toHaveCount(1);
  await expect(active('signIn.open.code')).toHaveCount(0);

  // Continue with an e-mail: the highlighted state follows to the code step.
  await continueWithEmail(dialog, 'visualiser@example.com');
  await expect(active('signIn.open.code')).toHaveCount(1);
  await expect(active('signIn.open.email')).toHaveCount(0);
  await expect(
    page
      .getByRole('complementary', { name: 'Last events' })
      .getByTestId('event-log')
      .getByText(/\(other tab\)/)
      .first(),
  ).toBeVisible();
});

testWithSiteAndVisualiser(
  'a visualiser opened after the site shows the live sign-in state at once and follows it',
  {},
  async ({ dialog, section }) => {
    // The site first: a player has already opened the sign-in modal; then the visualiser.
    const active = (id: string) => activeState(section, id);

    // The site's actor is there before the site does anything more, in its current state.
    const site = section.getByRole('button', { name: /\(other tab\)$/ });
    await expect(site).toBeVisible();
    await site.click();
    await expect(active('signIn.open.email')).toHaveCount(1);
    await expect(active('signIn.closed')).toHaveCount(0);

    // The sign-in steps on the site move the highlighted state.
    await continueWithEmail(dialog, 'late-visualiser@example.com');
    await expect(active('signIn.open.code')).toHaveCount(1);
    await expect(active('signIn.open.email')).toHaveCount(0);
  },
);

test('time travel over a sandbox run, then "Save as test" gives a file the model project runs and that fails when the behaviour breaks', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await page.goto('/__machines#machine-copyFeedback');
  const section = page.locator('section[data-machine="copyFeedback"]');
  await section.getByRole('button', { name: 'Sandbox', exact: true }).click();
  const state = section.getByTestId('sandbox-state');
  const position = section.getByTestId('sandbox-position');
  await section.getByLabel('Event payload (JSON)').fill('{"text":"https://example.com/r/ABC"}');
  await section.getByRole('button', { name: 'copyFeedback.copy' }).click();
  await section.getByLabel('Event payload (JSON)').fill('{}');
  await section.getByRole('button', { name: 'xstate.done.actor.writeClipboard' }).click();
  await expect(state).toHaveText('"copied"');
  // Time stands still in the sandbox: "Copied!" stays until the delay's button moves time on.
  await section.getByRole('button', { name: /^xstate\.after\.copyFeedback\./ }).click();
  await expect(state).toHaveText('"idle"');
  await expect(position).toHaveText('step 3 of 3');
  await expect(
    section.getByRole('button', { name: /after copyFeedback \(\+2000 ms\)/ }),
  ).toBeVisible();

  // Time travel: back, back, forward, jump to the start, jump to a step.
  await section.getByRole('button', { name: 'Step back' }).click();
  await expect(state).toHaveText('"copied"');
  await section.getByRole('button', { name: 'Step back' }).click();
  await expect(state).toHaveText('"copying"');
  await expect(position).toHaveText('step 1 of 3');
  await section.getByRole('button', { name: 'Step forward' }).click();
  await expect(state).toHaveText('"copied"');
  await section.getByRole('button', { name: /^start/ }).click();
  await expect(state).toHaveText('"idle"');
  await expect(position).toHaveText('step 0 of 3');
  await expect(section.getByRole('button', { name: 'Step back' })).toBeDisabled();
  await section.getByRole('button', { name: /after copyFeedback/ }).click();
  await expect(state).toHaveText('"idle"');
  await expect(position).toHaveText('step 3 of 3');
  // The chart follows the cursor.
  await expect(
    section.locator('g.devtools-node[data-active="true"][data-state-id="copyFeedback.idle"]'),
  ).toHaveCount(1);

  const downloading = page.waitForEvent('download');
  await section.getByRole('button', { name: 'Save as test' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^copyFeedback\.\d{8}-\d{6}\.recorded\.test\.ts$/);
  await expect(section.getByRole('status')).toContainText('tests/model/recorded/');

  // The behaviour breaks: "Copied!" returns after 1.5 s instead of the spec's 2 s.
  replaySaved(await download.path(), {
    machine: 'copyFeedback',
    fault: '{ delays: { copyFeedback: 1500 } }',
    failure:
      /step 3 of 3 \(after copyFeedback \(\+2000 ms\)\), 1 ms before the delay is due: state/,
  });
});

/** The node of state `id` in a visualiser section's chart, when it is the active state. */
const activeState = (section: Locator, id: string) =>
  section.locator(`g.devtools-node[data-active="true"][data-state-id="${id}"]`);

/** The sign-in dialog's first step: an e-mail and Continue; the code step shows. */
async function continueWithEmail(dialog: Locator, email: string) {
  await dialog.getByLabel('E-mail').fill(email);
  await dialog.getByRole('button', { name: 'Continue' }).click();
  await expect(dialog.getByRole('heading', { name: 'Verify E-mail' })).toBeVisible();
}

test('"Save as test" on a live actor of the site (another tab) gives a file the model project replays and that fails when the behaviour breaks', async ({
  page,
  context,
  watchPage,
}) => {
  test.setTimeout(180_000);
  // A player on the site asks for a code: the sign-in actor takes the events, the server's answer
  // and the resend countdown's ticks.
  await page.goto('/');
  await page.getByRole('button', { name: 'Get Access' }).first().click();
  const dialog = page.getByRole('dialog');
  await continueWithEmail(dialog, `live-recording-${Date.now()}@example.com`);

  const visualiser = await context.newPage();
  await watchPage(visualiser);
  await visualiser.goto('/__machines#machine-signIn');
  const section = visualiser.locator('section[data-machine="signIn"]');
  await expect(section.locator('svg[data-chart="signIn"]')).toBeVisible({ timeout: 60_000 });
  await section.getByRole('button', { name: /\(other tab\)$/ }).click();
  const recording = section.locator('[data-live-recording="signIn"]');
  // Everything since the actor started, the server's answer and a countdown tick included.
  await expect(recording.getByText(/^signIn\.open /)).toBeVisible();
  await expect(recording.getByText(/^xstate\.done\.actor\.sendCode/)).toBeVisible();
  await expect(recording.getByText(/^xstate\.after\.resendTick\./).first()).toBeVisible({
    timeout: 10_000,
  });

  const downloading = visualiser.waitForEvent('download');
  await recording.getByRole('button', { name: 'Save as test' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^signIn\.\d{8}-\d{6}\.recorded\.test\.ts$/);
  const status = recording.getByRole('status');
  await expect(status).toContainText('tests/model/recorded/');
  // The machine alone, with the outcomes the site delivered, reaches what the site showed.
  await expect(status).not.toContainText('does not reach');

  // The behaviour breaks: the resend countdown ticks every 0.9 s instead of every second.
  const text = replaySaved(await download.path(), {
    machine: 'signIn',
    fault: '{ delays: { resendTick: 900 } }',
    failure:
      /step \d+ of \d+ \(after resendTick \(\+1000 ms\)\), 1 ms before the delay is due: context/,
  });
  expect(text).toContain('"type": "xstate.done.actor.sendCode"');
});

/**
 * A player opens the sign-in dialog on the site, then the visualiser opens in a second tab of the
 * same browser (at `path`, 1440×900 when `wide`): the dialog, the visualiser and its signIn section,
 * its chart drawn.
 */
async function siteSignInThenVisualiser(
  {
    page,
    context,
    watchPage,
  }: { page: Page; context: BrowserContext; watchPage: (page: Page) => Promise<unknown> },
  { path = '/__machines', wide = false }: { path?: string; wide?: boolean } = {},
) {
  await page.goto('/');
  await page.getByRole('button', { name: 'Get Access' }).first().click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading', { name: 'Sign In' })).toBeVisible();
  const visualiser = await context.newPage();
  await watchPage(visualiser);
  if (wide) await visualiser.setViewportSize({ width: 1440, height: 900 });
  await visualiser.goto(path);
  const section = visualiser.locator('section[data-machine="signIn"]');
  await expect(section.locator('svg[data-chart="signIn"]')).toBeVisible({ timeout: 60_000 });
  return { dialog, visualiser, section };
}

type Opened = Awaited<ReturnType<typeof siteSignInThenVisualiser>>;

/** A test that starts from siteSignInThenVisualiser: the site's sign-in open, the visualiser beside. */
function testWithSiteAndVisualiser(
  name: string,
  options: { path?: string; wide?: boolean },
  body: (opened: Opened, page: Page) => Promise<void>,
) {
  test(name, async ({ page, context, watchPage }) => {
    test.setTimeout(90_000);
    await body(await siteSignInThenVisualiser({ page, context, watchPage }, options), page);
  });
}

test("every machine's sandbox opens from its sample input, and a crash stays inside the visualiser", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.goto('/__machines');
  for (const name of machineNames) {
    const section = page.locator(`section[data-machine="${name}"]`);
    const start = section.getByRole('button', { name: 'Sandbox', exact: true });
    await expect(start).toBeEnabled({ timeout: 30_000 });
    // The field holds the machine's documented sample input.
    await expect(
      section.getByText('the sample input (src/devtools/sampleInputs.ts)'),
    ).toBeVisible();
    await start.click();
    await expect(section.getByTestId('sandbox-status'), name).toHaveText('active');
    await expect(section.getByTestId('sandbox-crash')).toHaveCount(0);
    await section.getByRole('button', { name: 'Stop sandbox' }).click();
  }

  // The input that crashed signIn (no stored values): the crash is told in its section, the page
  // has no error modal and the other sections keep working.
  const signIn = page.locator('section[data-machine="signIn"]');
  await signIn.getByLabel('Sandbox input (JSON)').fill('{}');
  await signIn.getByRole('button', { name: 'Sandbox', exact: true }).click();
  await expect(signIn.getByTestId('sandbox-crash')).toContainText(
    "Cannot read properties of undefined (reading 'codeInvite')",
  );
  await expect(signIn.getByTestId('sandbox-status')).toHaveText('error');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  const copy = page.locator('section[data-machine="copyFeedback"]');
  await copy.getByRole('button', { name: 'Sandbox', exact: true }).click();
  await expect(copy.getByTestId('sandbox-status')).toHaveText('active');
});

testWithSiteAndVisualiser(
  'the visualiser runs no app of its own: the live actor of the tab the developer drove is selected first',
  {},
  async ({ visualiser, section }, page) => {
    await expect(visualiser.getByText(/live actors of the site in 1 other tab\./)).toBeVisible();
    const live = visualiser.locator('.devtools-live button');
    await expect(live.first()).toBeVisible();
    // Every live actor listed is the site's, in the other tab: none of the visualiser's own tab.
    const names = await live.allTextContents();
    expect(names.length).toBeGreaterThan(3);
    for (const text of names) expect(text).toMatch(/\(other tab\)$/);
    // Selected without a click: the site's sign-in actor, in the state the other tab shows.
    await expect(section.locator('.devtools-live button[aria-pressed="true"]')).toHaveText(
      /\(other tab\)$/,
    );
    await expect(
      section.locator('g.devtools-node[data-active="true"][data-state-id="signIn.open.email"]'),
    ).toHaveCount(1);
    // Its history is what "Save as test" records: the other tab's `signIn.open`.
    await expect(
      section.locator('[data-live-recording="signIn"]').getByText(/^signIn\.open /),
    ).toBeVisible();

    // The site's tab is closed: its actors leave the visualiser.
    await page.close();
    await expect(visualiser.getByText(/0 live actors of the site in 0 other tabs\./)).toBeVisible();
    await expect(live).toHaveCount(0);
  },
);

testWithSiteAndVisualiser(
  'an event sent from the visualiser reaches the live actor of the other tab and is recorded as a step',
  { path: '/__machines#machine-signIn' },
  async ({ dialog, visualiser, section }) => {
    const form = section.getByRole('form', { name: 'Send an event' });
    await form.getByRole('combobox').selectOption('signIn.emailChanged');
    await form.getByLabel('payload (JSON)').fill('{"email":"from-the-visualiser@example.com"}');
    await form.getByRole('button', { name: 'Send' }).click();
    // The site's field shows what the machine took.
    await expect(dialog.getByLabel('E-mail')).toHaveValue('from-the-visualiser@example.com');
    await form.getByRole('combobox').selectOption('signIn.close');
    await form.getByLabel('payload (JSON)').fill('{}');
    await form.getByRole('button', { name: 'Send' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(
      section.locator('g.devtools-node[data-active="true"][data-state-id="signIn.closed"]'),
    ).toHaveCount(1);
    // Logged like the site's own events (marked as sent from here) and recorded as steps.
    const log = visualiser.getByRole('complementary', { name: 'Last events' });
    await expect(
      log.locator('li[data-event-type="signIn.close"]').getByText('sent from here'),
    ).toBeVisible();
    const recording = section.locator('[data-live-recording="signIn"]');
    await expect(recording.getByText(/^signIn\.emailChanged .*from-the-visualiser/)).toBeVisible();
    await expect(recording.getByText(/^signIn\.close /)).toBeVisible();
  },
);

test('charts are drawn at 100 % with readable labels, and zoom, fit and pan', async ({ page }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/__machines#machine-signIn');
  const section = page.locator('section[data-machine="signIn"]');
  const svg = section.locator('svg[data-chart="signIn"]');
  await expect(svg).toBeVisible({ timeout: 60_000 });
  const zoom = section.getByTestId('chart-zoom');
  await expect(zoom).toHaveText('100 %');
  const labelHeight = () =>
    svg
      .locator('g.devtools-edge text')
      .first()
      .evaluate((t) => t.getBoundingClientRect().height);
  const nodeTitleHeight = () =>
    svg
      .locator('.devtools-node-title')
      .first()
      .evaluate((t) => t.getBoundingClientRect().height);
  const atFull = await labelHeight();
  const sizes = await section.getByTestId('chart-viewport').evaluate((el) => ({
    view: el.clientWidth,
    chart: el.scrollWidth,
  }));
  console.log(`visualiser: signIn chart ${sizes.chart} px wide in a ${sizes.view} px window`);
  console.log(
    `visualiser: signIn at 100 %: edge label ${atFull.toFixed(1)} px, state title ${(await nodeTitleHeight()).toFixed(1)} px high`,
  );
  expect(atFull).toBeGreaterThanOrEqual(11);
  expect(await nodeTitleHeight()).toBeGreaterThanOrEqual(13);

  // The chart is wider than its window: it pans by dragging.
  // The address's section is in view once drawn, as the charts above it are laid out.
  await expect(section.getByRole('heading', { name: 'signIn', level: 2 })).toBeInViewport();
  const viewport = section.getByTestId('chart-viewport');
  const scrollLeft = () => viewport.evaluate((el) => el.scrollLeft);
  await viewport.scrollIntoViewIfNeeded();
  const box = (await viewport.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 - 200, box.y + box.height / 2, { steps: 5 });
  await page.mouse.up();
  expect(await scrollLeft()).toBeGreaterThan(100);

  await section.getByRole('button', { name: 'Fit' }).click();
  const fitted = Number((await zoom.textContent())?.replace(/\D/g, ''));
  expect(fitted).toBeLessThan(100);
  const [svgBox, viewBox] = [(await svg.boundingBox())!, (await viewport.boundingBox())!];
  expect(svgBox.width).toBeLessThanOrEqual(viewBox.width);
  expect(svgBox.height).toBeLessThanOrEqual(viewBox.height);
  await section.getByRole('button', { name: 'Zoom in' }).click();
  await expect(zoom).not.toHaveText(`${fitted} %`);
  await section.getByRole('button', { name: 'Actual size (100 %)' }).click();
  await expect(zoom).toHaveText('100 %');
  expect(await labelHeight()).toBeCloseTo(atFull, 1);
});

test('the event log hides the realtime heartbeat, filters by actor and type, and shows no token', async ({
  page,
  context,
  watchPage,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const user = await registerUser(baseURL!, `visualiser-log-${Date.now()}@example.com`);
  const visualiser = await context.newPage();
  await watchPage(visualiser);
  await visualiser.goto('/__machines');
  await expect(visualiser.getByRole('heading', { name: 'Machines', level: 1 })).toBeVisible();

  // The site, signed in, in the other tab: its realtime connection pings every 30 s.
  await page.clock.install();
  await openSignedIn(page, user);
  await page.clock.runFor(31_000);
  await page.clock.runFor(31_000);

  const log = visualiser.getByRole('complementary', { name: 'Last events' });
  const entries = log.getByTestId('event-log').locator('li');
  const pings = entries.filter({ hasText: '"ping"' });
  const pongs = entries.filter({ hasText: '"pong"' });
  const hide = log.getByLabel('Hide heartbeats (ping, pong)');
  await expect(hide).toBeChecked();
  await expect(entries).not.toHaveCount(0);
  await expect(pings).toHaveCount(0);
  await hide.uncheck();
  await expect(pings.first()).toBeVisible({ timeout: 10_000 });
  await expect(pongs.first()).toBeVisible({ timeout: 10_000 });
  await hide.check();
  await expect(pings).toHaveCount(0);
  await expect(pongs).toHaveCount(0);

  // By actor, and by a part of the event type.
  await log.getByLabel('Actor').selectOption('realtime (other tab)');
  for (const route of await entries.getByTestId('event-route').allTextContents())
    expect(route).toMatch(/^realtime → |→ realtime \(other tab\)$/);
  await log.getByLabel('Actor').selectOption('');
  await log.getByLabel('Event type').fill('userData.');
  await expect(entries.first()).toBeVisible();
  for (const type of await entries.evaluateAll((li) => li.map((l) => l.dataset.eventType ?? '')))
    expect(type.toLowerCase()).toContain('userdata.');
  await log.getByLabel('Event type').fill('');

  // The tokens went through the site's actors (the inspector's own store holds them)...
  const raw = await visualiser.evaluate(() => {
    const store = (globalThis as unknown as Record<string, { actors: Map<string, unknown> }>)[
      'smw-devtools-inspector'
    ];
    return JSON.stringify([...(store?.actors.values() ?? [])]);
  });
  expect(raw).toContain(user.jwt);
  // ...and the page shows none of them: not in the log, not in the actors' contexts.
  for (const details of await visualiser.locator('details.devtools-livectx').all()) {
    await details.locator('summary').click();
  }
  const shown = await visualiser.locator('main').innerText();
  expect(shown).toContain('[redacted]');
  expect(shown).not.toContain(user.jwt);
  expect(shown).not.toMatch(/eyJ[\w-]+\.[\w-]+/);
  expect(shown).not.toContain(user.refreshToken);
  expect(shown).not.toContain(user.sessionToken);
});

testWithSiteAndVisualiser(
  'screenshots of the visualiser at 1440×900, light and dark, with the site live in another tab',
  { wide: true },
  async ({ dialog, visualiser, section }) => {
    await expect(visualiser.locator('svg[data-chart="userData"]')).toBeVisible({ timeout: 60_000 });
    await dialog.getByLabel('E-mail').fill('screenshot@example.com');
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await expect(activeState(section, 'signIn.open.code')).toHaveCount(1);
    for (const scheme of ['light', 'dark'] as const) {
      await visualiser.emulateMedia({ colorScheme: scheme });
      await visualiser.evaluate(
        (s) => document.documentElement.setAttribute('data-theme', s),
        scheme,
      );
      // The section at the top of the window, once the page has drawn two frames at rest.
      await section.evaluate((el) => el.scrollIntoView());
      await visualiser.evaluate(
        () =>
          new Promise((done) =>
            requestAnimationFrame(() => requestAnimationFrame(() => done(null))),
          ),
      );
      await expect(section.getByRole('heading', { name: 'signIn', level: 2 })).toBeInViewport();
      await visualiser.screenshot({ path: join(SHOTS, `visualiser-1440x900-${scheme}.png`) });
    }
  },
);
