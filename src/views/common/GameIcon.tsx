import { GAME_ICON_SIZE, type GameIconName } from './gameIconMeta';
import { loadedView } from './loadedView';
import { retryableImport } from '../../platform/retryableImport';

// The path data arrives after the page is in view: the icon's box is there from the start, so
// nothing moves when it is drawn.
const Paths = loadedView(
  retryableImport(
    () => import('./GameIconPaths'),
    (m) => m.GameIconPaths,
  ),
  'game icons',
  // Decoration: an icon that cannot load leaves its box empty, with no notice of its own.
  { quiet: true },
);

/** One game icon, inlined (no image request): decorative unless `label` names it. */
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
      <Paths name={name} fallback={null} />
    </svg>
  );
}
