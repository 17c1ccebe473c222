import type { ActorRefFrom } from 'xstate';
import type { signInMachine } from '../../../machines/signIn/signIn.machine';

/** The sign-in service as the views see it. */
export type SignInRef = ActorRefFrom<typeof signInMachine>;
