import type { SessionStartData } from '../../machines/session/session.types';

const clip = (value: string | null | undefined, max: number): string | undefined =>
  value ? value.slice(0, max) : undefined;

/** Session-start data (§3): language, user agent, utm_source (or `from`), campaign, medium. */
export function sessionStartData(env: {
  language: string;
  userAgent: string;
  search: string;
}): SessionStartData {
  const query = new URLSearchParams(env.search);
  const data: SessionStartData = {
    language: clip(env.language, 64) ?? 'en',
    user_agent: clip(env.userAgent, 512) ?? '',
  };
  const source = clip(query.get('utm_source') ?? query.get('from'), 200);
  const campaign = clip(query.get('utm_campaign'), 200);
  const medium = clip(query.get('utm_medium'), 200);
  if (source) data.utm_source = source;
  if (campaign) data.utm_campaign = campaign;
  if (medium) data.utm_medium = medium;
  return data;
}
