import { ESLint } from 'eslint';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The house's one way to send to a service that may be absent (docs/layout.md), held by the
 * linter on machines/: each case below is a chart action as someone might write it next, linted
 * with the repo's own config as if it were a file under machines/.
 */
const ROOT = resolve(import.meta.dirname, '../..');
const eslint = new ESLint({ cwd: ROOT });

async function problemsOf(action: string): Promise<string[]> {
  const code = `import { enqueueActions, sendTo, setup } from 'xstate';
import { SYSTEM_IDS, sendToService } from '../systemIds';
export const example = setup({ actions: { act: ${action} } }).createMachine({});
`;
  const [result] = await eslint.lintText(code, {
    filePath: resolve(ROOT, 'machines/example/example.machine.ts'),
  });
  return (result?.messages ?? [])
    .filter((message) => message.ruleId === 'no-restricted-syntax')
    .map((message) => message.message);
}

describe('sending to a service that may be absent', () => {
  it('refuses sendTo with a target computed in the send (XState falls back to the sender)', async () => {
    const problems = await problemsOf(
      `sendTo(({ system }) => system.get(SYSTEM_IDS.auth), { type: 'auth.accessGranted' })`,
    );
    expect(problems.some((text) => text.startsWith('A send whose target is computed'))).toBe(true);
  });

  it('refuses enqueue.sendTo with a computed target', async () => {
    const problems = await problemsOf(
      `enqueueActions(({ enqueue }) => enqueue.sendTo(({ system }) => system.get('auth'), { type: 'x' }))`,
    );
    expect(problems.some((text) => text.startsWith('A send whose target is computed'))).toBe(true);
  });

  it('refuses a fallback to self', async () => {
    const problems = await problemsOf(
      `enqueueActions(({ enqueue, context, self }) => enqueue.sendTo(context.parent ?? self, { type: 'x' }))`,
    );
    expect(problems).toContain(
      'No fallback to self: send only when the service runs (sendToService).',
    );
  });

  it('refuses a look-up of a service outside sendToService', async () => {
    const problems = await problemsOf(
      `enqueueActions(({ enqueue, system }) => { const auth = system.get(SYSTEM_IDS.auth); if (auth) enqueue.sendTo(auth, { type: 'x' }); })`,
    );
    expect(
      problems.some((text) => text.startsWith('Look a service up only in sendToService')),
    ).toBe(true);
  });

  it('takes the one way: sendToService, a child by id, a ref checked first', async () => {
    expect(
      await problemsOf(
        `enqueueActions((queue) => sendToService(queue, SYSTEM_IDS.auth, { type: 'auth.accessGranted' }))`,
      ),
    ).toEqual([]);
    expect(
      await problemsOf(`sendTo('copyFeedback', { type: 'copyFeedback.copy', text: '' })`),
    ).toEqual([]);
    expect(
      await problemsOf(
        `enqueueActions(({ enqueue, context }) => { if (context.parent) enqueue.sendTo(context.parent, { type: 'x' }); })`,
      ),
    ).toEqual([]);
  });
});
