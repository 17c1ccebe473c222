/**
 * What the build writes and the server serves: the pre-rendered pages beyond one per route.
 * The site's build (src/prerender) writes them; server/static.ts answers with them.
 */

/** The page an invite link (`/r/{code}`, `/ref/{code}`) is answered with: Home, previewed as an invite. */
export const INVITE_PAGE_FILE = 'invite.html';
/** The page any path the site does not have is answered with, with status 404. */
export const NOT_FOUND_PAGE_FILE = '404.html';
