import type { Store } from './store/engine';

/**
 * How many sign-in code e-mails may leave per minute: site-wide, and per recipient domain. The
 * production defaults are far above a launch's own pace (a sale's busiest minutes sign a few
 * dozen players in) and a spam run meets them within seconds. Counted in the store, so every
 * instance shares one budget.
 */
export type MailLimits = { readonly perMinute: number; readonly perDomainPerMinute: number };
export const PRODUCTION_MAIL_LIMITS: MailLimits = { perMinute: 120, perDomainPerMinute: 30 };
/** Development and the test suites: the same limits a hundredfold. */
export const DEVELOPMENT_MAIL_LIMITS: MailLimits = { perMinute: 12_000, perDomainPerMinute: 3_000 };

export const MAIL_LIMIT_MESSAGE =
  'Too many sign-in e-mails are being sent right now. Please try again in a minute.';

const WINDOW_MS = 60_000;

export type MailQuota = {
  /** Counts one code e-mail to `email`; refused (by which limit) when a budget is spent. */
  take(
    email: string,
  ): Promise<{ ok: true } | { ok: false; limit: 'site' | 'domain'; retryAfterSeconds: number }>;
};

export function createMailQuota(store: Store, limits: MailLimits, now: () => number): MailQuota {
  /** One statement per bucket: the window's count, started again when the minute changed. */
  const count = async (bucket: string, windowStart: number): Promise<number> => {
    const row = await store.db
      .insertInto('mail_quota')
      .values({ bucket, window_start: windowStart, sent: 1 })
      .onConflict((oc) =>
        oc.column('bucket').doUpdateSet((eb) => ({
          sent: eb
            .case()
            .when('mail_quota.window_start', '=', windowStart)
            .then(eb('mail_quota.sent', '+', 1))
            .else(1)
            .end(),
          window_start: windowStart,
        })),
      )
      .returning('sent')
      .executeTakeFirstOrThrow();
    return Number(row.sent);
  };
  return {
    async take(email) {
      const at = now();
      const windowStart = at - (at % WINDOW_MS);
      const retryAfterSeconds = Math.max(1, Math.ceil((windowStart + WINDOW_MS - at) / 1000));
      const domain = email.slice(email.lastIndexOf('@') + 1);
      if ((await count(`domain:${domain}`, windowStart)) > limits.perDomainPerMinute)
        return { ok: false, limit: 'domain', retryAfterSeconds };
      if ((await count('site', windowStart)) > limits.perMinute)
        return { ok: false, limit: 'site', retryAfterSeconds };
      return { ok: true };
    },
  };
}
