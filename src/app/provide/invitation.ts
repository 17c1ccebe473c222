import { fromCallback, fromPromise, type EventObject } from 'xstate';
import { invitationMachine } from '../../../machines/invitation/invitation.machine';
import type {
  CheckCodeInput,
  InvitationEvent,
  SetInviterInput,
  SetInviterOutput,
} from '../../../machines/invitation/invitation.types';
import { onLinkCode, storeInviteCode } from '../../platform/inviteCode';
import { sanitizeInviteCode } from '../../../contract/inviteCode';
import type { AppDeps } from '../compose';
import { systemTokenSource } from '../tokenSource';

/**
 * The invitation service with its browser parts: the codes of invite links the page opens,
 * invite/check and user/inviter over the API client, and browser storage for a kept code.
 */
export function provideInvitation(deps: Pick<AppDeps, 'api' | 'storage'>) {
  return invitationMachine.provide({
    actors: {
      // §2: a code is kept only when non-empty once cleaned (§5).
      linkCodes: fromCallback<EventObject>(({ sendBack }) =>
        onLinkCode((raw) => {
          const code = sanitizeInviteCode(raw);
          if (code) sendBack({ type: 'invitation.linkOpened', code } satisfies InvitationEvent);
        }),
      ),
      checkCode: fromPromise<boolean, CheckCodeInput>(async ({ input, signal }) => {
        const answer = await deps.api.call(
          'inviteCheck',
          { data: { code: input.code } },
          { signal },
        );
        return answer.known;
      }),
      setInviter: fromPromise<SetInviterOutput, SetInviterInput>(
        async ({ input, signal, system }) => {
          const answer = await deps.api.call(
            'inviterSet',
            { data: { code: input.code.slice(0, 64) } },
            { signal, tokens: systemTokenSource(system) },
          );
          return answer.user_data;
        },
      ),
    },
    actions: {
      storeLinkCode: (_, { code }) => void storeInviteCode(code, deps.storage),
    },
  });
}
