import type { GameIconName } from './gameIconMeta';
import { GAME_ICON_PATHS } from './gameIcons';

/** The paths of one icon (this module and the data are a chunk of their own). */
export function GameIconPaths({ name }: { name: GameIconName }) {
  return (
    <>
      {GAME_ICON_PATHS[name].map((d, i) => (
        <path key={i} fill="currentColor" d={d} />
      ))}
    </>
  );
}
