/** The five taglines the landing subheader cycles through (§2 Home, logged out). */
export const TAGLINES = [
  'Recruit Gangsters. Arm them. Take the city.',
  'Own Properties that pay $GNG every hour.',
  'Raid rival Gangs and loot their uncollected $GNG.',
  'Every $GNG spent in game flows back to the Fund.',
  'Bring your crew: earn 5% of what your friends spend.',
] as const;

/** Tagline rotation period (§9: tagline rotation 3 s). */
export const TAGLINE_ROTATION_MS = 3000;
