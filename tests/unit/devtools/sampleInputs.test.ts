import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isHeartbeat } from '../../../src/devtools/EventLog';
import { REDACTED, redactValue, showRedacted } from '../../../src/devtools/redact';
import { pickMachine } from '../../../src/devtools/recording';
import { SAMPLE_INPUTS, sampleInputText } from '../../../src/devtools/sampleInputs';
import { SandboxSession } from '../../../src/devtools/sandbox';

/**
 * The visualiser's sandbox starts each machine from its sample input (src/devtools/sampleInputs.ts):
 * every machine of machines/ has one, and starts from it (as the input field's JSON) without a
 * crash. What the visualiser shows of events and contexts has the player's tokens taken out.
 */
const ROOT = resolve(import.meta.dirname, '../../..');
const names = readdirSync(join(ROOT, 'machines'), { withFileTypes: true })
  .filter(
    (d) => d.isDirectory() && existsSync(join(ROOT, 'machines', d.name, `${d.name}.machine.ts`)),
  )
  .map((d) => d.name)
  .sort();

describe('sandbox sample inputs', () => {
  it('lists one sample input for every machine, and none for a machine that does not exist', () => {
    expect(names.length).toBeGreaterThan(10);
    expect(Object.keys(SAMPLE_INPUTS).sort()).toEqual(names);
  });

  it.each(names)('%s starts from its sample input and runs', async (name) => {
    const mod = (await import(join(ROOT, 'machines', name, `${name}.machine.ts`))) as Record<
      string,
      unknown
    >;
    const text = sampleInputText(name);
    const input: unknown = text === '' ? undefined : JSON.parse(text);
    const session = new SandboxSession(name, pickMachine(mod, name), input);
    try {
      expect(session.crash).toBeNull();
      expect(session.snapshot().status).toBe('active');
    } finally {
      session.stop();
    }
  });

  it('shows a crash in the sandbox instead of throwing it (signIn without its stored values)', async () => {
    const { signInMachine } = await import('../../../machines/signIn/signIn.machine');
    const session = new SandboxSession('signIn', signInMachine, {});
    try {
      expect(session.snapshot().status).toBe('error');
      expect(session.crash).toMatch(/codeInvite/);
    } finally {
      session.stop();
    }
  });
});

describe('what the visualiser shows', () => {
  const jwt =
    'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJwbGF5ZXJAZXhhbXBsZS5jb20ifQ.c2lnbmF0dXJlLW9mLXRoZS1qd3Q';

  it('redacts the jwt, refresh and session tokens, by field name and by the look of a JWT', () => {
    const shown = showRedacted({
      type: 'xstate.done.actor.verifyCode',
      output: { jwt, refreshToken: 'r-123', user: { email: 'a@b.c' } },
      session: 's-456',
      stored: { sessionToken: 's-456', refresh_token: 'r-123', theme: 'dark', jwt: null },
      note: `Authorization: Bearer ${jwt}`,
      list: [`token ${jwt}`],
    });
    expect(shown).not.toMatch(/eyJ/);
    expect(shown).not.toContain('r-123');
    expect(shown).not.toContain('s-456');
    expect(shown).toContain(REDACTED);
    // What is not a secret stays readable.
    expect(shown).toContain('a@b.c');
    expect(shown).toContain('"theme": "dark"');
    expect(shown).toContain('"jwt": null');
  });

  it('names a machine handed over in an event instead of printing its config', async () => {
    const { copyFeedbackMachine } =
      await import('../../../machines/copyFeedback/copyFeedback.machine');
    expect(redactValue({ type: 'members.ready', payment: copyFeedbackMachine })).toEqual({
      type: 'members.ready',
      payment: '[machine copyFeedback]',
    });
  });

  it('tells the realtime heartbeat from other events', () => {
    expect(isHeartbeat({ type: 'socket.send', frame: { type: 'ping', timestamp: 1 } })).toBe(true);
    expect(isHeartbeat({ type: 'socket.received', frame: { type: 'pong' } })).toBe(true);
    expect(isHeartbeat({ type: 'xstate.after.pingInterval.realtime.connected' })).toBe(true);
    expect(isHeartbeat({ type: 'socket.received', frame: { type: 'message', room: 'chat' } })).toBe(
      false,
    );
    expect(isHeartbeat({ type: 'signIn.open' })).toBe(false);
  });
});
