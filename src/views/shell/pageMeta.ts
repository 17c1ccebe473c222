/**
 * Each route's title and description: written into its pre-rendered HTML (with the Open Graph
 * and Twitter card tags a shared link is previewed with) and set on the live page when the route
 * changes. Plain data and string functions: the build (src/prerender) imports it too.
 */
export type PageMeta = { title: string; description: string };

const SITE_NAME = 'Solana Mafia Wars';

/** The share image (1200×630, public/share.png, made by scripts/make-share-image.mjs). */
const SHARE_IMAGE = { path: '/share.png', width: 1200, height: 630 } as const;

/** What the browser's tab and history show for each page (set live as the route changes). */
export const HOME_TITLE = `${SITE_NAME}: build your criminal empire`;
export const NOT_FOUND_TITLE = `Page not found · ${SITE_NAME}`;
/** A docs page: the guide's own title. */
export const docsTitle = (title: string): string => `${title} · ${SITE_NAME} guide`;

// The descriptions and share tags matter to search engines and link previews, which read the
// pre-rendered HTML: they live only in the build, not in the site's JS.
export const HOME_META: PageMeta = {
  title: HOME_TITLE,
  description:
    'Solana Mafia Wars: build your criminal empire. Get your entry ticket in SOL or invite two friends, and board the training phase.',
};

/** `/r/{code}` and `/ref/{code}`: what a shared invite link previews. */
export const INVITE_META: PageMeta = {
  title: `You are invited to ${SITE_NAME}`,
  description:
    'A friend invites you to their crew in Solana Mafia Wars. Sign in with your e-mail, get your ticket in SOL, and board the training phase.',
};

export const NOT_FOUND_META: PageMeta = {
  title: NOT_FOUND_TITLE,
  description:
    'This page does not exist. The Solana Mafia Wars home page and guides are one click away.',
};

export function docsMeta(title: string): PageMeta {
  return {
    title: docsTitle(title),
    description: `${title}: a guide to Solana Mafia Wars, the strategy game on Solana. Gangsters, weapons, properties, fights and $GNG explained.`,
  };
}

const escapeAttribute = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * The head tags of a page: title, description, Open Graph and Twitter card. `siteUrl` (the
 * deployment's origin, SITE_URL at build time) makes the image and page addresses absolute, as
 * link previews require; without it they stay relative to the host that serves the page.
 */
export function headTagsOf(meta: PageMeta, path: string, siteUrl = ''): string {
  const origin = siteUrl.replace(/\/+$/, '');
  const title = escapeAttribute(meta.title);
  const description = escapeAttribute(meta.description);
  const image = `${origin}${SHARE_IMAGE.path}`;
  return [
    `<title>${title}</title>`,
    `<meta name="description" content="${description}" />`,
    `<meta property="og:type" content="website" />`,
    `<meta property="og:site_name" content="${SITE_NAME}" />`,
    `<meta property="og:title" content="${title}" />`,
    `<meta property="og:description" content="${description}" />`,
    `<meta property="og:url" content="${escapeAttribute(`${origin}${path}`)}" />`,
    `<meta property="og:image" content="${image}" />`,
    `<meta property="og:image:width" content="${SHARE_IMAGE.width}" />`,
    `<meta property="og:image:height" content="${SHARE_IMAGE.height}" />`,
    `<meta property="og:image:alt" content="${SITE_NAME}: a night city skyline in gold and noir" />`,
    `<meta name="twitter:card" content="summary_large_image" />`,
    `<meta name="twitter:title" content="${title}" />`,
    `<meta name="twitter:description" content="${description}" />`,
    `<meta name="twitter:image" content="${image}" />`,
  ].join('\n    ');
}
