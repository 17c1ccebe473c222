import { controllable, type Controllable } from '../paths';

/**
 * A promise actor whose invocations wait for the test, like `controllable` of the path harness,
 * except that resolve / reject settle the newest invocation: an invocation left behind when the
 * chart moved on (the tab closed while the wallet was connecting) is stopped by XState and must
 * not take the answer meant for the one the chart waits for now.
 */
export type Latest<TOutput, TInput> = Controllable<TOutput, TInput>;

export function latest<TOutput, TInput>(): Latest<TOutput, TInput> {
  return controllable<TOutput, TInput>({ answer: 'newest' });
}
