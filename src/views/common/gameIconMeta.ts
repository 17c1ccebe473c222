/** The game icons the pages draw (their path data: gameIcons.ts, generated). */
export type GameIconName = 'gangster' | 'gun' | 'rifle' | 'pack' | 'ticket' | 'friends';

/** The icon set's viewBox size. */
export const GAME_ICON_SIZE = 512;

/** The credit the licence (CC BY 3.0) asks for, shown where the icons are. */
export const GAME_ICONS_CREDIT =
  'Icons by Lorc, Delapouite and contributors, game-icons.net (CC BY 3.0)';
