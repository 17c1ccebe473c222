import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Store } from './store/engine';

/**
 * @fastify/rate-limit's counts kept in the store instead of each process's memory, so every
 * instance of one Postgres spends one budget per address: a client sending its requests to the
 * instances in turn gets no more than one instance's limit. One statement per request (an upsert
 * that starts the window again once it is over), so instances counting at once lose no hit.
 */
export function sharedRateStore(store: Store): FastifyRateLimitStoreCtor {
  const make = (prefix: string): FastifyRateLimitStore => ({
    incr(key, callback, timeWindow) {
      const at = Date.now();
      const bucket = `${prefix}${key}`;
      store.db
        .insertInto('rate_counters')
        .values({ bucket, window_start: at, hits: 1 })
        .onConflict((oc) =>
          oc.column('bucket').doUpdateSet((eb) => {
            const open = eb('rate_counters.window_start', '>', at - timeWindow);
            return {
              hits: eb
                .case()
                .when(open)
                .then(eb('rate_counters.hits', '+', 1))
                .else(1)
                .end(),
              window_start: eb
                .case()
                .when(open)
                .then(eb.ref('rate_counters.window_start'))
                .else(at)
                .end(),
            };
          }),
        )
        .returning(['hits', 'window_start'])
        .executeTakeFirstOrThrow()
        .then(
          (row) =>
            callback(null, {
              current: Number(row.hits),
              ttl: Math.max(0, Number(row.window_start) + timeWindow - at),
            }),
          (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
        );
    },
    child(routeOptions) {
      return make(`${prefix}${routeOptions.method}:${routeOptions.url}:`);
    },
  });
  return class {
    constructor() {
      return make('');
    }
  } as unknown as FastifyRateLimitStoreCtor;
}
