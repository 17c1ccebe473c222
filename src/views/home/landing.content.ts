/** Fixed texts and links of the landing page (§2 Home, logged out; §9). */
export const LANDING = {
  title: 'Solana Mafia Wars',
  tagline: 'Build Your Criminal Empire',
  getAccess: 'Get Access',
} as const;

/** The promo video (public/). */
export const PROMO_VIDEO_SRC = '/media/promo.webm';
/** The trailer's length as the hero says it (tests/unit/promoVideo.test.ts reads the file's). */
export const PROMO_VIDEO_LENGTH = '0:30';
/** The promo's poster frame (also the landing's art): shown until the clip plays. */
export const PROMO_POSTER_SRC = '/media/poster.svg';

/** Inviter's share of friends' in-game cash purchases (§9: 5%). */
export const INVITE_SHARE_PERCENT = 5;

/** Official community links, plain links opened in a new tab. */
export const SOCIAL_LINKS = [
  { label: 'X (Twitter)', href: 'https://x.com/SolanaMafiaWars' },
  { label: 'Telegram', href: 'https://t.me/SolanaMafiaWars' },
  { label: 'Discord', href: 'https://discord.gg/solanamafiawars' },
] as const;
