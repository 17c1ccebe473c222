import { fromPromise } from 'xstate';
import { settle } from '../paths';

/**
 * A promise actor whose invocations wait for the test, like `controllable` of the path harness,
 * except that resolve / reject settle the newest invocation: an invocation left behind when the
 * chart moved on (the tab closed while the wallet was connecting) is stopped by XState and must
 * not take the answer meant for the one the chart waits for now.
 */
export type Latest<TOutput, TInput> = {
  logic: ReturnType<typeof fromPromise<TOutput, TInput>>;
  calls: TInput[];
  resolve: (output: TOutput) => Promise<void>;
  reject: (error: unknown) => Promise<void>;
};

export function latest<TOutput, TInput>(): Latest<TOutput, TInput> {
  const waiting: { resolve: (v: TOutput) => void; reject: (e: unknown) => void }[] = [];
  const calls: TInput[] = [];
  const take = () => {
    const deferred = waiting.pop();
    if (!deferred) throw new Error('no pending invocation to settle');
    waiting.length = 0;
    return deferred;
  };
  return {
    logic: fromPromise<TOutput, TInput>(({ input }) => {
      calls.push(input);
      return new Promise<TOutput>((resolve, reject) => waiting.push({ resolve, reject }));
    }),
    calls,
    resolve: async (output) => {
      take().resolve(output);
      await settle();
    },
    reject: async (error) => {
      take().reject(error);
      await settle();
    },
  };
}
