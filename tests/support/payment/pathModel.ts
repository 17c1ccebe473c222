import { defineModel } from '../paths';
import { PAYMENT_VARIANTS, modelMachine } from './model';
import { SPEC_TRANSITIONS } from '../specTransitions';

/** The payment machine's generated paths and coverage (see ./model.ts for the choices). */
export const model = defineModel({
  name: 'payment',
  machine: modelMachine,
  required: SPEC_TRANSITIONS.payment,
  ...PAYMENT_VARIANTS,
  paths: { simple: false, byEvent: true },
  uncovered: {
    'payment.open.idle · payment.target [gainsAccessByFriends] → payment.open.granted.byFriends':
      "one more target variant (access by friends) outgrows the generator's budget: tests/unit/payment.machine.test.ts takes it, tests/unit/machines/inviterLive.test.ts runs it with the real services, tests/e2e/live.spec.ts in the browser",
    'payment.open.refreshing · xstate.done.actor.refreshBalance [isPaidInAnotherTab] → payment.open.granted.done':
      "another tab's word (provided from src/, false in the model): tests/unit/payment.machine.test.ts takes it, tests/e2e/feedback.spec.ts runs it with two tabs",
  },
});
