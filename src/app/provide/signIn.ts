/**
 * The sign-in service with real implementations: auth/email/init and auth/email/verify over the
 * API client (the invoking state's AbortSignal cancels the request), and the invite code from
 * browser storage (when none is stored, the page's fallback is sent and never shown).
 */
import { fromPromise } from 'xstate';
import { signInMachine } from '../../../machines/signIn/signIn.machine';
import type {
  SendCodeInput,
  SendCodeOutput,
  VerifyCodeInput,
  VerifyCodeOutput,
} from '../../../machines/signIn/signIn.types';
import type { ApiClient } from '../../api/client';
import type { KeyValueStorage } from '../../platform/storage';

export type SignInDeps = { api: Pick<ApiClient, 'call'>; storage: KeyValueStorage };

export function provideSignIn(deps: SignInDeps) {
  return signInMachine.provide({
    actors: {
      sendCode: fromPromise<SendCodeOutput, SendCodeInput>(async ({ input, signal }) => {
        const answer = await deps.api.call(
          'authEmailInit',
          {
            data: {
              email: input.email,
              code_invite:
                input.inviteCode ??
                (await import('../../platform/fallbackInviteCode')).ensureInviteCode(deps.storage),
              resend: input.resend,
            },
          },
          { signal },
        );
        // The fallback is sent, never handed back: the modal shows only a code from a link.
        return { signCode: answer.sign_code, inviteCode: input.inviteCode };
      }),
      verifyCode: fromPromise<VerifyCodeOutput, VerifyCodeInput>(async ({ input, signal }) => {
        const answer = await deps.api.call(
          'authEmailVerify',
          { data: { email: input.email, code: input.code } },
          { signal },
        );
        return {
          jwt: answer.jwt,
          refreshToken: answer.refresh_token,
          userData: answer.user_data,
        };
      }),
    },
  });
}
