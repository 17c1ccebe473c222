import { fromCallback, fromPromise, type AnyActorRef, type EventObject } from 'xstate';
import { SYSTEM_IDS } from '../../../machines/systemIds';
import { selectIsOpen, type SignInSnapshot } from '../../../machines/signIn/signIn.selectors';
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
      // The sign-in service's dialog, opened or closed: an unknown code is said in one place.
      signInDialog: fromCallback<EventObject>(({ sendBack, system }) => {
        const signIn: AnyActorRef | undefined = system.get(SYSTEM_IDS.signIn);
        if (!signIn) return undefined;
        let open = false;
        const tell = (snapshot: SignInSnapshot) => {
          if (selectIsOpen(snapshot) === open) return;
          open = !open;
          sendBack({
            type: open ? 'signIn.dialogOpened' : 'signIn.dialogClosed',
          } satisfies InvitationEvent);
        };
        tell(signIn.getSnapshot() as SignInSnapshot);
        const subscription = signIn.subscribe((snapshot) => tell(snapshot as SignInSnapshot));
        return () => subscription.unsubscribe();
      }),
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
