#!/usr/bin/env node
// Writes the landing's key art, drawn behind the hero's title (src/views/home/landing.css):
// - public/media/key-art-city.svg: the noir city at night, full bleed: a warm-to-violet sky, the
//   moon, searchlights, two rows of towers with lit windows, neon signs (BAR, HOTEL, a red
//   CASINO arrow), street lamps and the wet street's reflections;
// - public/media/key-art-gang.svg: the gang in front of it, three gangsters in fedoras (`spy`),
//   the middle one with a tommy gun (`thompson-m1928`), rim-lit in gold and neon red;
// - public/media/rain.svg: a tile of rain the page lets fall (CSS, still under reduced motion).
// Shapes and the game-icons.net set (@iconify-json/game-icons, CC BY 3.0, credited on the site);
// no SVG filters (a filter is rasterised again at every paint and slowed a phone's first paint):
// glows are layered strokes and gradients. Two files so the page can move them apart (parallax).
// Run after changing the art: `node scripts/make-key-art.mjs`.
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { iconPaths } from './gameIconPaths.mjs';

const W = 1600;
const H = 900;
let seed = 11;
const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
const r = (n) => Math.round(n);

/** A row of towers: [x, width, height] from the ground line, with lit windows. */
function towers(row, ground, fill, windowFill, windowOpacity, litShare) {
  let body = '';
  let lights = '';
  for (const [x, w, h, roof] of row) {
    const top = ground - h;
    body += `M${x} ${ground}V${top}h${w}V${ground}z`;
    if (roof === 'spire') body += `M${x + w / 2 - 4} ${top}v-${r(h * 0.22)}h8v${r(h * 0.22)}z`;
    if (roof === 'step') body += `M${x + w * 0.2} ${top}v-24h${w * 0.6}v24z`;
    if (roof === 'peak') body += `M${x} ${top}l${w / 2} -${r(w * 0.45)}l${w / 2} ${r(w * 0.45)}z`;
    for (let y = top + 18; y < ground - 20; y += 22)
      for (let wx = x + 10; wx < x + w - 14; wx += 16)
        if (random() < litShare) lights += `M${wx} ${y}h7v11h-7z`;
  }
  return `<path fill="${fill}" d="${body}"/><path fill="${windowFill}" opacity="${windowOpacity}" d="${lights}"/>`;
}

/** Neon tubes without filters: a wide faint halo, a narrower one, then the tube. */
function neon(shapes, colour) {
  const halo = (width, opacity) =>
    `<g opacity="${opacity}" stroke="${colour}" stroke-width="${width}">${shapes}</g>`;
  return `<g fill="none" stroke-linecap="round" stroke-linejoin="round">${halo(18, 0.1)}${halo(9, 0.22)}<g stroke="${colour}" stroke-width="3.5">${shapes}</g><g stroke="#fff4f0" stroke-width="1.2" opacity="0.8">${shapes}</g></g>`;
}

/** Block letters as tube strokes, 1 unit = 1 px at the given size (only what the signs need). */
const LETTERS = {
  B: 'M0 0v24h7a6 6 0 0 0 0-12h-7m7 0a6 6 0 0 0 0-12h-7',
  A: 'M0 24l7-24l7 24m-11-8h8',
  R: 'M0 24v-24h8a6 6 0 0 1 0 12h-8m7 0l7 12',
  H: 'M0 0v24m0-12h12m0-12v24',
  O: 'M6 0a6 12 0 1 0 0.01 0z',
  T: 'M0 0h14m-7 0v24',
  E: 'M12 0h-12v24h12m-12-12h9',
  L: 'M0 0v24h11',
  C: 'M12 3a8 12 0 1 0 0 18',
  S: 'M12 3c-3-4-12-3-11 3s11 5 11 12s-9 7-12 3',
  I: 'M0 0v24',
  N: 'M0 24v-24l12 24v-24',
};
const ADVANCE = { I: 8, O: 18, A: 20 };
function word(text, x, y, size, vertical) {
  const k = size / 24;
  let at = 0;
  return [...text]
    .map((ch, i) => {
      const dx = vertical ? (14 - (ADVANCE[ch] ?? 14)) / 2 + (ch === 'I' ? 7 : 0) : at;
      const dy = vertical ? i * 34 * k : 0;
      at += ((ADVANCE[ch] ?? 14) + 6) * k;
      return `<path transform="translate(${r(x + dx * (vertical ? k : 1))} ${r(y + dy)}) scale(${k})" vector-effect="non-scaling-stroke" d="${LETTERS[ch]}"/>`;
    })
    .join('');
}

/** A street lamp: post, arm, lamp and its cone of light on the wet street. */
function lamp(x, ground) {
  return `<path fill="#07060a" d="M${x - 3} ${ground}v-190h6v190zM${x} ${ground - 188}h34v5h-34z"/><path fill="#ffd58a" d="M${x + 26} ${ground - 184}h16l-4 9h-8z"/><path fill="url(#lampCone)" d="M${x + 30} ${ground - 175}h8l70 175h-148z"/>`;
}

// The far row of towers, then the near row (the silhouettes stand in front of them).
const farRow = [
  [0, 120, 330],
  [110, 90, 420, 'spire'],
  [205, 130, 300],
  [330, 80, 380, 'step'],
  [420, 140, 290],
  [560, 100, 470, 'spire'],
  [670, 120, 340],
  [800, 90, 520, 'spire'],
  [895, 140, 360],
  [1040, 110, 430, 'step'],
  [1150, 120, 310],
  [1275, 100, 460, 'spire'],
  [1380, 130, 350],
  [1505, 95, 400],
];
const nearRow = [
  [0, 150, 250],
  [140, 110, 330, 'peak'],
  [250, 160, 210],
  [410, 120, 280],
  [530, 90, 190],
  [620, 130, 240],
  [750, 100, 300, 'step'],
  [850, 150, 200],
  [1000, 120, 270],
  [1120, 140, 220, 'peak'],
  [1260, 110, 300],
  [1370, 150, 240],
  [1520, 80, 280],
];
const GROUND = 740;

const city = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" preserveAspectRatio="xMidYMax slice">
<defs>
<linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#07070d"/><stop offset="0.45" stop-color="#171126"/><stop offset="0.72" stop-color="#3b1a2a"/><stop offset="0.82" stop-color="#5a2a22"/><stop offset="1" stop-color="#0b0908"/></linearGradient>
<radialGradient id="moon" cx="0.5" cy="0.5" r="0.5"><stop offset="0" stop-color="#fbecc4"/><stop offset="0.42" stop-color="#f0cf86"/><stop offset="0.5" stop-color="#d4a64a" stop-opacity="0.55"/><stop offset="1" stop-color="#d4a64a" stop-opacity="0"/></radialGradient>
<linearGradient id="beam" x1="0" y1="1" x2="0" y2="0"><stop offset="0" stop-color="#f6dfa6" stop-opacity="0.22"/><stop offset="1" stop-color="#f6dfa6" stop-opacity="0"/></linearGradient>
<radialGradient id="glow" cx="0.5" cy="1" r="0.6"><stop offset="0" stop-color="#ff3d6e" stop-opacity="0.35"/><stop offset="1" stop-color="#ff3d6e" stop-opacity="0"/></radialGradient>
<linearGradient id="street" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#120d10"/><stop offset="1" stop-color="#050405"/></linearGradient>
<linearGradient id="lampCone" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#ffd58a" stop-opacity="0.32"/><stop offset="1" stop-color="#ffd58a" stop-opacity="0"/></linearGradient>
<linearGradient id="reflect" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-opacity="0.6"/><stop offset="1" stop-opacity="0"/></linearGradient>
</defs>
<rect width="${W}" height="${H}" fill="url(#sky)"/>
<path fill="url(#beam)" d="M300 ${GROUND}l-170 -740h90zM1330 ${GROUND}l120 -740h-80z"/>
<circle cx="1210" cy="190" r="150" fill="url(#moon)"/>
<circle cx="1210" cy="190" r="62" fill="#fbecc4" opacity="0.9"/>
<rect y="380" width="${W}" height="${GROUND - 380}" fill="url(#glow)"/>
${towers(farRow, GROUND, '#1a1422', '#e9b860', 0.35, 0.28)}
${towers(nearRow, GROUND, '#0b090d', '#f2c36b', 0.75, 0.2)}
${neon(word('HOTEL', 600, 320, 22, true), '#ff4d7a')}
${neon(`<rect x="1012" y="498" width="98" height="44" rx="8"/>${word('BAR', 1030, 508, 24)}`, '#4fd6ff')}
${neon(`<path d="M262 570h150l24 22l-24 22h-150z"/>${word('CASINO', 276, 580, 20)}`, '#ffb547')}
<rect y="${GROUND}" width="${W}" height="${H - GROUND}" fill="url(#street)"/>
<g opacity="0.55"><path fill="#ff4d7a" opacity="0.35" d="M770 ${GROUND + 4}h40l14 ${H - GROUND}h-68z"/><path fill="#4fd6ff" opacity="0.3" d="M1010 ${GROUND + 4}h100l24 ${H - GROUND}h-148z"/><path fill="#ffb547" opacity="0.3" d="M260 ${GROUND + 4}h175l30 ${H - GROUND}h-235z"/><path fill="#fbecc4" opacity="0.25" d="M1180 ${GROUND + 4}h60l40 ${H - GROUND}h-140z"/></g>
<path stroke="#f3ece2" stroke-opacity="0.08" stroke-width="2" d="M0 ${GROUND + 40}H${W}M0 ${GROUND + 95}H${W}"/>
${lamp(120, GROUND + 60)}${lamp(1450, GROUND + 60)}
</svg>
`;

// The gang: three busts rising from the bottom edge, the middle one a step ahead with the gun.
const spy = iconPaths('spy');
const gun = iconPaths('thompson-m1928');
/** A gangster in fedora, black against the city, his outline lit (gold, or the neon's red). */
function gangster(x, y, scale, rim) {
  // A halo, the rim, then the figure in black, its pieces joined by a black stroke: a solid
  // silhouette whose outer edge alone is lit. One path (#spy), drawn four times by reference.
  const use = (attrs) => `<use href="#spy" ${attrs}/>`;
  return `<g transform="translate(${x} ${y}) scale(${scale})" stroke-linejoin="round">${use(`fill="none" stroke="${rim}" stroke-opacity="0.16" stroke-width="44"`)}${use(`fill="${rim}" stroke="${rim}" stroke-width="26"`)}${use('fill="#040305" stroke="#040305" stroke-width="16"')}${use(`fill="none" stroke="${rim}" stroke-opacity="0.22" stroke-width="2"`)}</g>`;
}
export const GANG_VIEWBOX = [0, 0, 860, 470];
const gang = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="${GANG_VIEWBOX.join(' ')}" width="${GANG_VIEWBOX[2]}" height="${GANG_VIEWBOX[3]}">
<defs><path id="spy" d="${spy}"/></defs>
${gangster(20, 120, 0.72, '#ff4d7a')}
${gangster(470, 130, 0.7, '#4fd6ff')}
${gangster(200, 18, 0.9, '#d4a64a')}
<g transform="translate(262 498) rotate(-34) scale(0.95)"><path fill="#0a0807" stroke="#d4a64a" stroke-width="7" stroke-linejoin="round" paint-order="stroke" d="${gun}"/></g>
</svg>
`;

// Rain: a 240 × 320 tile of slanted streaks, repeated and moved by the page.
seed = 5;
let drops = '';
for (let i = 0; i < 26; i += 1) {
  const x = r(random() * 240);
  const y = r(random() * 320);
  const len = r(18 + random() * 26);
  drops += `M${x} ${y}l-${r(len / 5)} ${len}`;
}
const rain = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 240 320" width="240" height="320"><path fill="none" stroke="#d8e2f2" stroke-opacity="0.38" stroke-width="1.3" stroke-linecap="round" d="${drops}"/></svg>
`;

for (const [name, svg] of [
  ['key-art-city.svg', city],
  ['key-art-gang.svg', gang],
  ['rain.svg', rain],
]) {
  const out = resolve(import.meta.dirname, '../public/media', name);
  writeFileSync(out, svg);
  console.log(`key art: ${name}, ${svg.length} bytes`);
}
