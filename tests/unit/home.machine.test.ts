import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { copyFeedbackMachine } from '../../machines/copyFeedback/copyFeedback.machine';
import { homeMachine } from '../../machines/home/home.machine';
import {
  selectActiveTab,
  selectCopyFeedbackRef,
  selectUnusedCodeCount,
} from '../../machines/home/home.selectors';
import { selectIsCopied } from '../../machines/copyFeedback/copyFeedback.selectors';
import type { InviteCodeItem, ShareInput } from '../../machines/home/home.types';
import { provideHome } from '../../src/app/provide/home';

const LINK = 'https://site.test/r/CODE42';

function start(share: ((data: ShareInput) => Promise<void>) | undefined) {
  const clipboard: string[] = [];
  const inviteCodes = vi.fn(async () => [
    { code_text: 'A', code_status: 0 },
    { code_text: 'B', code_status: 0 },
    { code_text: 'C', code_status: 1 },
  ]);
  const logic = provideHome({
    inviteCodes: fromPromise(inviteCodes),
    writeClipboard: async (text) => {
      clipboard.push(text);
    },
    ...(share ? { share } : {}),
  });
  const actor = createActor(logic, { input: {} }).start();
  return { actor, clipboard, inviteCodes };
}

describe('home service', () => {
  it('opens on Get Ticket and loads invite codes each time the Invite tab opens', async () => {
    const { actor, inviteCodes } = start(undefined);
    expect(selectActiveTab(actor.getSnapshot())).toBe('getTicket');
    expect(inviteCodes).not.toHaveBeenCalled();
    actor.send({ type: 'home.showInvite' });
    await waitFor(actor, (s) => s.matches({ invite: { codes: 'loaded' } }));
    expect(selectUnusedCodeCount(actor.getSnapshot())).toBe(2);
    actor.send({ type: 'home.showTicket' });
    actor.send({ type: 'home.showInvite' });
    await waitFor(actor, (s) => s.matches({ invite: { codes: 'loaded' } }));
    expect(inviteCodes).toHaveBeenCalledTimes(2);
  });

  it('copies the invite link when the browser has no Web Share API, and shows Copied!', async () => {
    const { actor, clipboard } = start(undefined);
    actor.send({ type: 'home.showInvite' });
    actor.send({ type: 'invite.share', url: LINK });
    await waitFor(actor, (s) => s.matches({ invite: { link: 'idle' } }));
    await waitFor(actor, (s) => {
      const child = selectCopyFeedbackRef(s);
      return child ? selectIsCopied(child.getSnapshot()) : false;
    });
    expect(clipboard).toEqual([LINK]);
  });

  it('uses the share sheet where present and does not copy', async () => {
    const share = vi.fn(async () => {});
    const { actor, clipboard } = start(share);
    actor.send({ type: 'home.showInvite' });
    actor.send({ type: 'invite.share', url: LINK });
    await waitFor(actor, (s) => s.matches({ invite: { link: 'idle' } }));
    expect(share).toHaveBeenCalledWith(expect.objectContaining({ url: LINK }));
    expect(clipboard).toEqual([]);
  });

  it('copy shows Copied! for 2 s (copy feedback of §9)', async () => {
    vi.useFakeTimers();
    try {
      const actor = createActor(
        homeMachine.provide({
          actors: {
            inviteCodes: fromPromise(async (): Promise<InviteCodeItem[]> => []),
            copyFeedback: copyFeedbackMachine.provide({
              actors: { writeClipboard: fromPromise(async () => {}) },
            }),
          },
        }),
        { input: {} },
      ).start();
      actor.send({ type: 'home.showInvite' });
      actor.send({ type: 'invite.copyLink', url: LINK });
      await vi.advanceTimersByTimeAsync(0);
      const copied = () => {
        const child = selectCopyFeedbackRef(actor.getSnapshot());
        return child ? selectIsCopied(child.getSnapshot()) : null;
      };
      expect(copied()).toBe(true);
      await vi.advanceTimersByTimeAsync(1999);
      expect(copied()).toBe(true);
      await vi.advanceTimersByTimeAsync(1);
      expect(copied()).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });
});
