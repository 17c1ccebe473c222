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
});
