import { fromPromise, type PromiseActorLogic } from 'xstate';
import { copyFeedbackMachine } from '../../../machines/copyFeedback/copyFeedback.machine';
import { homeMachine } from '../../../machines/home/home.machine';
import type { InviteCodeItem, ShareInput, ShareResult } from '../../../machines/home/home.types';

/**
 * Browser implementations of the home service: the invite-codes call, the Web Share sheet and
 * the clipboard for the invite link.
 */
export type HomeDeps = {
  /** user/invite/codes through the api client (with the bearer jwt and its refresh). */
  inviteCodes: PromiseActorLogic<InviteCodeItem[]>;
  writeClipboard: (text: string) => Promise<void>;
  share?: (data: ShareInput) => Promise<void>;
};

/** navigator.share where the browser has it; `undefined` means "copy instead". */
function browserShare(): ((data: ShareInput) => Promise<void>) | undefined {
  if (typeof navigator === 'undefined' || typeof navigator.share !== 'function') return undefined;
  return (data) => navigator.share(data);
}

export function provideHome(deps: HomeDeps) {
  return homeMachine.provide({
    actors: {
      inviteCodes: deps.inviteCodes,
      shareLink: fromPromise<ShareResult, ShareInput>(async ({ input }) => {
        const share = deps.share ?? browserShare();
        if (!share) return { outcome: 'unsupported', url: input.url };
        await share(input);
        return { outcome: 'shared', url: input.url };
      }),
      copyFeedback: copyFeedbackMachine.provide({
        actors: { writeClipboard: fromPromise(({ input }) => deps.writeClipboard(input.text)) },
      }),
    },
  });
}
