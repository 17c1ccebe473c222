// The path data of the game-icons.net set (@iconify-json/game-icons, CC BY 3.0, credited on the
// site), for the scripts that draw the site's art (make-poster, make-key-art, make-promo-video).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const set = JSON.parse(
  readFileSync(require.resolve('@iconify-json/game-icons/icons.json'), 'utf8'),
);

/** The path data of one icon of the set (512 × 512, plain paths). */
export function iconPaths(id) {
  const icon = set.icons[id];
  if (!icon) throw new Error(`game-icons has no ${id}`);
  return [...icon.body.matchAll(/ d="([^"]+)"/g)].map((m) => m[1]).join(' ');
}
