#!/usr/bin/env node
// Writes public/media/poster.svg: the trailer's poster on the landing and in the player until it
// plays. A rainy night skyline under the moon, a neon sign, and two gangsters in fedoras, one with
// a tommy gun, drawn from the game-icons.net set (@iconify-json/game-icons, CC BY 3.0, credited on
// the site): `spy` for the figures and `thompson-m1928` for the gun; no title (the page has it).
// Run after changing the art: `node scripts/make-poster.mjs`.
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { iconPaths } from './gameIconPaths.mjs';

const spy = iconPaths('spy');
const gun = iconPaths('thompson-m1928');

// Rain: thin slanted strokes, three layers of different length and brightness.
let seed = 7;
const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
function rain(count, length, width) {
  let d = '';
  for (let i = 0; i < count; i += 1) {
    const x = Math.round(random() * 1000 - 20);
    const y = Math.round(random() * 560 - 40);
    d += `M${x} ${y}l${-Math.round(length / 4)} ${length}`;
  }
  return `<path d="${d}" stroke-width="${width}"/>`;
}

// Glow and rim light without SVG filters: a filter is rasterised again at every paint and, on a
// slow phone, held the landing's first paint back by about 0.1 s. Layered strokes look alike and
// paint like any path.
/** Neon tubes: a wide faint halo, a narrower one, then the tube itself. */
function neon(shapes) {
  const halo = (width, opacity) =>
    `<g opacity="${opacity}" fill="none" stroke-linecap="round" stroke-linejoin="round">${shapes.replace(/stroke-width="[\d.]+"/g, `stroke-width="${width}"`)}</g>`;
  return `${halo(14, 0.12)}${halo(8, 0.22)}<g fill="none" stroke-linecap="round" stroke-linejoin="round">${shapes}</g>`;
}
/** A gangster in fedora, black against the night, his outline lit in gold. */
function rimLit(transform) {
  return `<g transform="${transform}"><path fill="none" stroke="#d4a64a" stroke-opacity="0.22" stroke-width="22" stroke-linejoin="round" d="${spy}"/><path fill="#050404" stroke="#d4a64a" stroke-opacity="0.7" stroke-width="8" stroke-linejoin="round" paint-order="stroke" d="${spy}"/></g>`;
}

const windows = [
  [80, 300],
  [110, 330],
  [225, 260],
  [255, 300],
  [375, 290],
  [420, 330],
  [525, 240],
  [555, 280],
  [600, 330],
  [695, 280],
  [860, 300],
  [905, 340],
  [385, 360],
  [230, 380],
  [620, 400],
  [880, 390],
]
  .map(([x, y]) => `M${x} ${y}h8v10h-8z`)
  .join('');

const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 960 540" width="960" height="540" preserveAspectRatio="xMidYMid slice">
<defs>
<linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#120e0c"/><stop offset="0.62" stop-color="#3a2616"/><stop offset="1" stop-color="#0d0b0a"/></linearGradient>
<radialGradient id="moon" cx="0.5" cy="0.5" r="0.5"><stop offset="0" stop-color="#f6dfa6"/><stop offset="0.7" stop-color="#d4a64a"/><stop offset="1" stop-color="#d4a64a" stop-opacity="0"/></radialGradient>
<radialGradient id="haze" cx="0.5" cy="1" r="0.7"><stop offset="0" stop-color="#e0475f" stop-opacity="0.28"/><stop offset="1" stop-color="#e0475f" stop-opacity="0"/></radialGradient>
<linearGradient id="street" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#17110d"/><stop offset="1" stop-color="#070605"/></linearGradient>
</defs>
<rect width="960" height="540" fill="url(#sky)"/>
<circle cx="720" cy="140" r="95" fill="url(#moon)" opacity="0.8"/>
<path fill="#0d0b0a" d="M0 330h70v210H0zM60 280h90v260H60zM150 360h60v180h-60zM205 230h80v310h-80zM205 230l40-40 40 40zM285 310h70v230h-70zM355 260h100v280H355zM455 340h55v200h-55zM510 200h70v340h-70zM540 160h10v40h-10zM580 300h95v240h-95zM675 250h70v290h-70zM745 330h90v210h-90zM835 270h125v270H835z"/>
<path fill="#d4a64a" opacity="0.55" d="${windows}"/>
<rect x="0" y="430" width="960" height="110" fill="url(#street)"/>
<rect x="0" y="300" width="960" height="240" fill="url(#haze)"/>
${neon(`<rect x="596" y="232" width="62" height="150" rx="8" stroke="#ff5a7a" stroke-width="4"/>
<path stroke="#ffd6de" stroke-width="3" d="M612 250v28h12a7 7 0 0 0 0-14h-12m12 0a7 7 0 0 0 0-14h-12M612 336l11-36l11 36m-18-12h14M612 368v-28h11a7 7 0 0 1 0 14h-11m9 0l10 14"/>
<path stroke="#ffb547" stroke-width="3" d="M380 214h100"/>`)}
<text x="430" y="206" text-anchor="middle" font-family="Georgia, serif" font-size="22" font-weight="700" fill="#ffd9a0" stroke="#ffb547" stroke-opacity="0.35" stroke-width="5" paint-order="stroke" letter-spacing="3">HOTEL</text>
<path fill="#ff5a7a" opacity="0.22" d="M588 440h78l30 100H560z"/>
<g stroke="#c9d3e6" stroke-linecap="round" fill="none">
<g opacity="0.16">${rain(90, 28, 1)}</g>
<g opacity="0.28">${rain(45, 44, 1.4)}</g>
</g>
${rimLit('translate(8 282) scale(0.5)')}
${rimLit('translate(712 300) scale(0.44)')}
<g transform="translate(118 372) rotate(-4) scale(0.34)"><path fill="#0a0807" stroke="#d4a64a" stroke-width="7" stroke-linejoin="round" d="${gun}"/></g>
<g stroke="#c9d3e6" stroke-linecap="round" fill="none" opacity="0.35">${rain(30, 60, 1.6)}</g>
</svg>
`;
const out = resolve(import.meta.dirname, '../public/media/poster.svg');
writeFileSync(out, svg);
console.log(`poster: ${svg.length} bytes written to ${out}`);
