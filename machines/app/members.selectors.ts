import type { AppSnapshot } from './app.selectors';

/**
 * The member services' code could not load (Retry on the page's notice asks again). A module of
 * its own: only the signed-in home's chunk reads it, so it stays out of the landing's first load.
 */
export const selectMembersUnavailable = (s: AppSnapshot): boolean =>
  s.matches({ members: 'codeUnavailable' });
