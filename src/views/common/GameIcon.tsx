import { GAME_ICON_PATHS, GAME_ICON_SIZE, type GameIconName } from './gameIcons';

/**
 * One game icon, inlined (no request): decorative unless `label` names it. The path data comes
 * from the generated gameIcons.ts, fixed at build time.
 */
export function GameIcon({
  name,
  size = 28,
  label,
  className,
}: {
  name: GameIconName;
  size?: number;
  label?: string;
  className?: string;
}) {
  return (
    <svg
      className={className ? `game-icon ${className}` : 'game-icon'}
      width={size}
      height={size}
      viewBox={`0 0 ${GAME_ICON_SIZE} ${GAME_ICON_SIZE}`}
      role={label ? 'img' : undefined}
      aria-label={label}
      aria-hidden={label ? undefined : true}
      focusable="false"
    >
      {GAME_ICON_PATHS[name].map((d, i) => (
        <path key={i} fill="currentColor" d={d} />
      ))}
    </svg>
  );
}
