#!/usr/bin/env node
// Writes public/media/rain.svg: a 240 × 320 tile of slanted rain streaks the landing lets fall
// over the key art's poster (src/views/home/landing.css; still under reduced motion) until the
// live scene runs. Shapes only, no SVG filter (a filter is rasterised again at every paint).
// Run after changing it: `node scripts/make-rain.mjs`.
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

let seed = 5;
const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
const r = (n) => Math.round(n);

let drops = '';
for (let i = 0; i < 26; i += 1) {
  const x = r(random() * 240);
  const y = r(random() * 320);
  const len = r(18 + random() * 26);
  drops += `M${x} ${y}l-${r(len / 5)} ${len}`;
}
const rain = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 240 320" width="240" height="320"><path fill="none" stroke="#d8e2f2" stroke-opacity="0.38" stroke-width="1.3" stroke-linecap="round" d="${drops}"/></svg>
`;

const out = resolve(import.meta.dirname, '../public/media/rain.svg');
writeFileSync(out, rain);
console.log(`rain: rain.svg, ${rain.length} bytes`);
