import { defineModel } from '../paths';
import { PAYMENT_VARIANTS, modelMachine } from './model';

/** The payment machine's generated paths and coverage (see ./model.ts for the choices). */
export const model = defineModel({
  name: 'payment',
  machine: modelMachine,
  ...PAYMENT_VARIANTS,
  paths: { simple: false },
});
