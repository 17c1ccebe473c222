// The key art as a scene: the noir city at night drawn per pixel (src/views/home/keyArt/scene.ts
// runs it; scripts/make-key-art-scene.mjs renders its poster frame from this same source).
// Units: the drawing's height is 1, x is centred, so any width shows the same scene, wider or
// narrower, standing on the same street. GLSL ES 1.00, so WebGL 1 draws it too.
precision highp float;

uniform vec2 uRes;
uniform float uTime;
uniform vec2 uShift;
uniform float uRain;
// 1 draws the gang on the street (the page, its poster); the trailer's city is drawn without it.
uniform float uGang;

const float GROUND = 0.235;
const float FOOT = 0.035;
const vec3 RED = vec3(1.0, 0.16, 0.22);
const vec3 TEAL = vec3(0.15, 0.95, 0.9);
const vec3 GOLD = vec3(1.0, 0.72, 0.3);
const vec3 MAGENTA = vec3(0.95, 0.25, 0.85);

float hash(float n) { return fract(sin(n * 127.1) * 43758.5453); }
float hash2(vec2 p) { return fract(sin(dot(p, vec2(127.1, 311.7))) * 43758.5453); }
float noise(vec2 p) {
  vec2 i = floor(p);
  vec2 f = fract(p);
  f = f * f * (3.0 - 2.0 * f);
  return mix(mix(hash2(i), hash2(i + vec2(1.0, 0.0)), f.x),
             mix(hash2(i + vec2(0.0, 1.0)), hash2(i + vec2(1.0, 1.0)), f.x), f.y);
}
float fbm(vec2 p) {
  float v = 0.0;
  float a = 0.5;
  for (int i = 0; i < 4; i++) {
    v += a * noise(p);
    p = p * 2.03 + 7.1;
    a *= 0.5;
  }
  return v;
}
float sdBox(vec2 p, vec2 b) {
  vec2 d = abs(p) - b;
  return length(max(d, 0.0)) + min(max(d.x, d.y), 0.0);
}
float sdSeg(vec2 p, vec2 a, vec2 b) {
  vec2 pa = p - a;
  vec2 ba = b - a;
  float h = clamp(dot(pa, ba) / dot(ba, ba), 0.0, 1.0);
  return length(pa - ba * h);
}
float smin(float a, float b, float k) {
  float h = clamp(0.5 + 0.5 * (b - a) / k, 0.0, 1.0);
  return mix(b, a, h) - k * h * (1.0 - h);
}

// One row of towers. Returns (inside, window light, fog depth).
vec3 towers(vec2 p, float cols, float hMin, float hVar, float seed, float lit, float t) {
  float cx = p.x * cols + seed * 13.0;
  float id = floor(cx);
  float fx = fract(cx);
  float r = hash(id + seed);
  float h = GROUND + hMin + hVar * r * r;
  float w = 0.72 + 0.26 * hash(id + seed + 3.1);
  float edge = 1.5 / (uRes.y * 1.0) * cols;
  float inX = smoothstep(0.0, edge, fx) * smoothstep(w, w - edge, fx);
  // Some roofs carry a spire or a stepped top.
  float roof = hash(id + seed + 9.7);
  float top = h;
  if (roof > 0.8 && abs(fx - w * 0.5) < 0.06 * w) top = h + 0.05 * hVar;
  else if (roof > 0.55 && fx > w * 0.18 && fx < w * 0.82) top = h + 0.018;
  float inY = smoothstep(top + 0.0015, top - 0.0015, p.y);
  float inside = inX * inY;
  // Windows: a grid on the facade, some lit, a few flickering.
  float rows = 70.0;
  vec2 g = vec2(fx / w * (6.0 + floor(r * 4.0)), (p.y - GROUND) * rows);
  vec2 cell = floor(g);
  vec2 f = fract(g);
  float on = step(1.0 - lit, hash2(cell + id * 7.3 + seed));
  float blink = hash2(cell + id * 3.1 + 2.0);
  if (blink > 0.985) on *= step(0.35, fract(t * 0.11 + blink * 9.0));
  float pane = step(0.25, f.x) * step(f.x, 0.72) * step(0.3, f.y) * step(f.y, 0.78);
  float below = step(p.y, h - 0.012) * step(GROUND + 0.01, p.y);
  float warm = 0.55 + 0.45 * hash2(cell + 1.7);
  return vec3(inside, on * pane * below * inside * warm, h);
}

// Neon tubes: glow from a distance field, a white-hot core.
vec3 tube(float d, vec3 colour, float k) {
  return colour * (exp(-d * 55.0) * 0.32 + exp(-d * 260.0) * 0.55) * k + mix(colour, vec3(1.0), 0.6) * smoothstep(0.0028, 0.0008, d) * k;
}

// Letters drawn as strokes in a 1×1.6 box, origin at the bottom left.
float glyph(vec2 q, int c) {
  float d = 1e5;
  if (c == 0) { // H
    d = min(sdSeg(q, vec2(0.0), vec2(0.0, 1.6)), sdSeg(q, vec2(1.0, 0.0), vec2(1.0, 1.6)));
    d = min(d, sdSeg(q, vec2(0.0, 0.8), vec2(1.0, 0.8)));
  } else if (c == 1) { // O
    d = abs(length((q - vec2(0.5, 0.8)) * vec2(1.0, 0.62)) - 0.5);
  } else if (c == 2) { // T
    d = min(sdSeg(q, vec2(0.0, 1.6), vec2(1.0, 1.6)), sdSeg(q, vec2(0.5, 0.0), vec2(0.5, 1.6)));
  } else if (c == 3) { // E
    d = min(sdSeg(q, vec2(0.0), vec2(0.0, 1.6)), sdSeg(q, vec2(0.0, 1.6), vec2(1.0, 1.6)));
    d = min(d, min(sdSeg(q, vec2(0.0, 0.8), vec2(0.8, 0.8)), sdSeg(q, vec2(0.0), vec2(1.0, 0.0))));
  } else if (c == 4) { // L
    d = min(sdSeg(q, vec2(0.0), vec2(0.0, 1.6)), sdSeg(q, vec2(0.0), vec2(1.0, 0.0)));
  } else if (c == 5) { // B
    d = sdSeg(q, vec2(0.0), vec2(0.0, 1.6));
    d = min(d, abs(sdBox(q - vec2(0.4, 1.2), vec2(0.4, 0.4)) - 0.0));
    d = min(d, abs(sdBox(q - vec2(0.45, 0.4), vec2(0.45, 0.4)) - 0.0));
  } else if (c == 6) { // A
    d = min(sdSeg(q, vec2(0.0), vec2(0.5, 1.6)), sdSeg(q, vec2(1.0, 0.0), vec2(0.5, 1.6)));
    d = min(d, sdSeg(q, vec2(0.2, 0.6), vec2(0.8, 0.6)));
  } else { // R
    d = sdSeg(q, vec2(0.0), vec2(0.0, 1.6));
    d = min(d, abs(sdBox(q - vec2(0.42, 1.2), vec2(0.42, 0.4))));
    d = min(d, sdSeg(q, vec2(0.3, 0.8), vec2(1.0, 0.0)));
  }
  return d;
}

// The signs: HOTEL down a tower on the left, BAR over a door on the right, two far ones.
vec3 signs(vec2 p, float t) {
  vec3 c = vec3(0.0);
  // HOTEL, vertical, red, a flicker on its E.
  vec2 o = vec2(-0.255, 0.33);
  if (abs(p.x - o.x) < 0.09 && p.y > o.y - 0.07 && p.y < o.y + 0.3) {
    float s = 0.028;
    float flick = step(0.12, noise(vec2(t * 9.0, 1.0)));
    for (int i = 0; i < 5; i++) {
      vec2 q = (p - (o + vec2(-0.5 * s, 0.2 - float(i) * 0.056))) / s;
      float d = glyph(q, i == 0 ? 0 : i == 1 ? 1 : i == 2 ? 2 : i == 3 ? 3 : 4) * s;
      float k = i == 3 ? mix(0.25, 1.0, flick) : 1.0;
      c += tube(d, RED, k);
    }
    float frame = abs(sdBox(p - (o + vec2(0.0, 0.105)), vec2(0.03, 0.145))) ;
    c += tube(frame, RED, 0.35);
  }
  // BAR, horizontal, teal.
  o = vec2(0.255, 0.3);
  if (abs(p.x - o.x) < 0.15 && abs(p.y - o.y) < 0.1) {
    float s = 0.026;
    for (int i = 0; i < 3; i++) {
      vec2 q = (p - (o + vec2(-0.06 + float(i) * 0.045, -0.02))) / s;
      c += tube(glyph(q, i == 0 ? 5 : i == 1 ? 6 : 7) * s, TEAL, 1.0);
    }
    c += tube(abs(sdBox(p - o, vec2(0.085, 0.038))), TEAL, 0.3);
  }
  // Far signs: a magenta arrow and a gold bar, dimmed by the fog.
  c += tube(sdSeg(p, vec2(-0.72, 0.43), vec2(-0.58, 0.43)), MAGENTA, 0.55);
  c += tube(min(sdSeg(p, vec2(-0.58, 0.43), vec2(-0.61, 0.455)), sdSeg(p, vec2(-0.58, 0.43), vec2(-0.61, 0.405))), MAGENTA, 0.55);
  c += tube(abs(sdBox(p - vec2(0.78, 0.42), vec2(0.018, 0.09))), GOLD, 0.5);
  c += tube(sdSeg(p, vec2(0.772, 0.37), vec2(0.788, 0.37)), GOLD, 0.5);
  c += tube(sdSeg(p, vec2(0.772, 0.47), vec2(0.788, 0.47)), GOLD, 0.5);
  return c;
}

// The tommy gun held across the chest, its barrel out past the left shoulder.
float tommyGun(vec2 q) {
  float d = sdSeg(q, vec2(0.2, 0.43), vec2(-0.42, 0.78)) - 0.02;
  d = min(d, sdSeg(q, vec2(0.2, 0.43), vec2(0.3, 0.35)) - 0.034);
  d = min(d, length(q - vec2(-0.03, 0.54)) - 0.066);
  d = min(d, sdSeg(q, vec2(-0.17, 0.6), vec2(-0.18, 0.55)) - 0.018);
  return d;
}

// One gangster, about 1 tall: shoes, trousers, a trench coat flaring to its hem, sloping
// shoulders, the head and a fedora with a pinched crown; `gun` gives him the tommy gun.
float gangster(vec2 q, float gun, float lean) {
  q.x -= lean * (q.y - 0.5);
  float d = sdBox(q - vec2(-0.058, 0.16), vec2(0.046, 0.15)) - 0.006;
  d = min(d, sdBox(q - vec2(0.058, 0.16), vec2(0.046, 0.15)) - 0.006);
  d = min(d, length((q - vec2(-0.07, 0.018)) * vec2(1.0, 2.4)) - 0.06);
  d = min(d, length((q - vec2(0.07, 0.018)) * vec2(1.0, 2.4)) - 0.06);
  float y = clamp((q.y - 0.24) / 0.48, 0.0, 1.0);
  float w = mix(0.2, 0.14, y);
  d = smin(d, sdBox(q - vec2(0.0, 0.48), vec2(w, 0.24)), 0.02);
  d = smin(d, sdSeg(q, vec2(-0.14, 0.7), vec2(0.14, 0.7)) - 0.045, 0.05);
  d = smin(d, length((q - vec2(0.0, 0.815)) * vec2(1.15, 1.0)) - 0.062, 0.03);
  // The fedora: a brim curling up at its ends, a crown narrowing, its top pinched.
  vec2 b = q - vec2(0.0, 0.868);
  d = min(d, length(b * vec2(1.0, 6.0)) - 0.13 + 0.0 * b.x);
  float crown = sdBox(q - vec2(0.0, 0.915), vec2(0.078 - (q.y - 0.87) * 0.25, 0.045)) - 0.012;
  crown = max(crown, -(length((q - vec2(0.0, 0.985)) * vec2(1.0, 2.5)) - 0.035));
  d = min(d, crown);
  // Sleeves down the coat's sides.
  d = smin(d, sdSeg(q, vec2(-0.165, 0.69), vec2(-0.205, 0.43)) - 0.04, 0.02);
  if (gun > 0.5) {
    d = smin(d, sdSeg(q, vec2(0.165, 0.69), vec2(0.15, 0.46)) - 0.04, 0.02);
    d = smin(d, sdSeg(q, vec2(-0.165, 0.66), vec2(-0.1, 0.57)) - 0.036, 0.02);
    d = min(d, tommyGun(q));
  } else {
    d = smin(d, sdSeg(q, vec2(0.165, 0.69), vec2(0.205, 0.43)) - 0.04, 0.02);
  }
  return d;
}

float gang(vec2 p) {
  float s = 0.3;
  float d = gangster((p - vec2(0.0, FOOT)) / s, 1.0, 0.0) * s;
  float s2 = 0.275;
  d = min(d, gangster((p - vec2(-0.16, FOOT + 0.012)) / s2, 0.0, 0.02) * s2);
  d = min(d, gangster((p - vec2(0.165, FOOT + 0.01)) / s2 * vec2(-1.0, 1.0), 0.0, 0.04) * s2);
  return d;
}

// What the wet street mirrors: the lit windows and the signs.
vec3 lights(vec2 p, float t) {
  vec3 far = towers(p + uShift * 0.3, 9.0, 0.08, 0.2, 1.0, 0.3, t);
  vec3 mid = towers(p + uShift * 0.6, 4.6, 0.1, 0.3, 2.0, 0.22, t);
  vec3 c = GOLD * far.y * 0.35 * (1.0 - mid.x) + GOLD * mid.y * 0.8;
  return c + signs(p + uShift * 0.6, t);
}

void main() {
  vec2 p = (gl_FragCoord.xy - vec2(0.5 * uRes.x, 0.0)) / uRes.y;
  float t = uTime;
  // Sky: violet above, the city's smoky amber glow at the horizon.
  float sky = clamp((p.y - GROUND) / (1.0 - GROUND), 0.0, 1.0);
  vec3 col = mix(vec3(0.3, 0.12, 0.16), vec3(0.05, 0.035, 0.1), pow(sky, 0.55));
  col = mix(col, vec3(0.018, 0.015, 0.045), smoothstep(0.4, 1.0, sky));
  // The moon behind thin cloud.
  vec2 m = p - vec2(0.56, 0.84) + uShift * 0.05;
  float md = length(m);
  float cloud = fbm(p * vec2(3.0, 9.0) + vec2(t * 0.01, 0.0));
  col += vec3(1.0, 0.93, 0.8) * smoothstep(0.046, 0.043, md) * (0.75 - 0.4 * cloud);
  col += vec3(0.7, 0.6, 0.75) * 0.09 / (md * 12.0 + 0.6) * smoothstep(0.6, 0.0, md);
  col += vec3(0.25, 0.16, 0.3) * smoothstep(0.45, 0.75, cloud) * (0.25 + 0.5 * sky) * 0.6;
  // Searchlights sweeping from behind the towers.
  for (int i = 0; i < 2; i++) {
    float fi = float(i);
    vec2 base = vec2(i == 0 ? -0.62 : 0.55, GROUND);
    float a = (i == 0 ? 0.35 : -0.3) + 0.22 * sin(t * 0.13 + fi * 2.1);
    vec2 dir = vec2(sin(a), cos(a));
    vec2 q = p - base;
    float along = dot(q, dir);
    float across = abs(q.x * dir.y - q.y * dir.x);
    float beam = smoothstep(0.02 + along * 0.06, 0.0, across) * step(0.0, along) * exp(-along * 1.4);
    col += vec3(0.55, 0.5, 0.6) * beam * 0.16;
  }
  // Three rows of towers, the farthest in the haze.
  vec3 far = towers(p + uShift * 0.3, 9.0, 0.08, 0.2, 1.0, 0.3, t);
  vec3 farCol = mix(vec3(0.09, 0.07, 0.14), vec3(0.2, 0.12, 0.19), 0.5);
  col = mix(col, farCol, far.x);
  col += GOLD * far.y * 0.35;
  vec3 mid = towers(p + uShift * 0.6, 4.6, 0.1, 0.3, 2.0, 0.22, t);
  col = mix(col, vec3(0.045, 0.035, 0.07), mid.x);
  col += GOLD * mid.y * 0.8;
  col += signs(p + uShift * 0.6, t);
  vec3 near = towers(p + uShift * 1.0, 2.2, 0.04, 0.12, 3.0, 0.12, t);
  float sideMask = smoothstep(0.18, 0.42, abs(p.x));
  col = mix(col, vec3(0.02, 0.018, 0.035), near.x * sideMask);
  col += GOLD * near.y * sideMask;
  // Fog rolling along the street.
  float fogH = exp(-max(p.y - GROUND + 0.03, 0.0) * 7.0);
  float fog = fogH * (0.45 + 0.55 * fbm(vec2(p.x * 2.2 - t * 0.025, p.y * 5.0 + t * 0.01)));
  col = mix(col, vec3(0.26, 0.17, 0.27), fog * 0.55);
  // The wet street: dark asphalt mirroring the lights, broken by ripples and puddles.
  if (p.y < GROUND) {
    float depth = (GROUND - p.y) / GROUND;
    vec3 street = mix(vec3(0.05, 0.04, 0.07), vec3(0.015, 0.012, 0.02), depth);
    float ripple = (noise(vec2(p.x * 60.0, p.y * 420.0 + t * 2.0)) - 0.5) * 0.012 * (1.0 - depth * 0.5);
    vec2 r = vec2(p.x + ripple, 2.0 * GROUND - p.y + 0.004);
    float puddle = smoothstep(0.35, 0.65, fbm(vec2(p.x * 4.0, p.y * 18.0)));
    vec3 mirrored = lights(r, t) * (0.25 + 0.6 * puddle) * (1.0 - depth * 0.7);
    street += mirrored;
    // Sky glow on the asphalt and the kerb's edge.
    street += vec3(0.2, 0.1, 0.14) * 0.25 * puddle * (1.0 - depth);
    street += vec3(0.5, 0.3, 0.3) * smoothstep(0.003, 0.0, abs(p.y - GROUND + 0.002)) * 0.25;
    col = mix(street, col, smoothstep(GROUND - 0.002, GROUND, p.y));
  }
  // Street lamps: warm pools of light on both sides.
  for (int i = 0; i < 2; i++) {
    float side = i == 0 ? -1.0 : 1.0;
    vec2 lamp = vec2(side * 0.42, 0.43);
    float pole = smoothstep(0.004, 0.002, abs(p.x - side * 0.42)) * step(p.y, 0.43) * step(FOOT, p.y);
    col = mix(col, vec3(0.02), pole);
    col = mix(col, vec3(0.02), smoothstep(0.003, 0.0, sdSeg(p, lamp, lamp + vec2(-side * 0.03, 0.0)) - 0.003));
    vec2 head = lamp + vec2(-side * 0.03, -0.008);
    col += vec3(1.0, 0.9, 0.7) * smoothstep(0.008, 0.004, length(head - p));
    col += GOLD * exp(-length((p - head) * vec2(1.0, 1.2)) * 16.0) * 0.45;
    col += GOLD * 0.1 * smoothstep(0.09, 0.0, abs(p.x - head.x) - (head.y - p.y) * 0.35) * step(p.y, head.y) * step(GROUND - 0.03, p.y) * (1.0 - (head.y - p.y) * 2.0);
    float pool = exp(-pow(length((p - vec2(side * 0.42, 0.06)) * vec2(1.0, 3.2)) * 3.5, 2.0));
    col += GOLD * pool * 0.2 * step(p.y, GROUND);
  }
  // The gang, black against the haze, rim-lit red from the HOTEL sign and gold from the lamps.
  if (uGang > 0.5 && abs(p.x) < 0.36 && p.y < 0.4) {
    vec2 gp = p + uShift * 1.3;
    float d = gang(gp);
    float e = 0.0015;
    vec2 n = normalize(vec2(gang(gp + vec2(e, 0.0)) - d, gang(gp + vec2(0.0, e)) - d) + 1e-6);
    float inside = smoothstep(0.0012, -0.0012, d);
    float rimBand = smoothstep(-0.006, -0.0005, d) * inside;
    vec3 rim = RED * max(dot(n, normalize(vec2(-1.0, 0.7))), 0.0) * 1.2
             + GOLD * max(dot(n, normalize(vec2(1.0, 0.5))), 0.0) * 0.9;
    vec3 body = vec3(0.012, 0.01, 0.016) + rim * rimBand;
    // The gun's steel catches the lamps: a thin highlight along its top.
    float gd = tommyGun((gp - vec2(0.0, FOOT)) / 0.3) * 0.3;
    body += vec3(0.55, 0.6, 0.75) * smoothstep(0.0016, 0.0, abs(gd + 0.0012)) * 0.5 * step(0.0, n.y + 0.3);
    // Their reflection and contact shadow on the wet street.
    float rd = gang(vec2(gp.x, 2.0 * FOOT - gp.y));
    col *= 1.0 - 0.6 * smoothstep(0.004, -0.004, rd) * step(gp.y, FOOT) * 1.0;
    col *= 1.0 - 0.5 * exp(-pow(length((gp - vec2(0.0, FOOT)) * vec2(2.4, 22.0)), 2.0));
    col = mix(col, body, inside);
    // A cigarette's ember on the left one, breathing.
    vec2 ember = vec2(-0.16 + 0.02 * 0.275 + 0.028, FOOT + 0.012 + 0.8 * 0.275) - uShift * 1.3;
    float glowE = 0.6 + 0.4 * sin(t * 1.7);
    col += vec3(1.0, 0.45, 0.12) * (smoothstep(0.0035, 0.0015, length(p - ember)) + exp(-length(p - ember) * 160.0) * 0.5) * glowE;
  }
  // Rain in two depths, falling at a slant (left out of the poster: the page's own rain falls on it).
  if (uRain > 0.0) {
    for (int i = 0; i < 2; i++) {
      float fi = float(i);
      float scale = i == 0 ? 90.0 : 45.0;
      vec2 q = vec2(p.x * scale + p.y * scale * 0.12, p.y * scale * 0.08 + t * (i == 0 ? 2.2 : 3.2));
      vec2 id = floor(q);
      vec2 f = fract(q);
      float rnd = hash2(id + fi * 17.0);
      float x0 = 0.2 + 0.6 * rnd;
      float drop = smoothstep(0.09, 0.0, abs(f.x - x0)) * smoothstep(0.0, 0.5, f.y) * smoothstep(1.0, 0.6, f.y) * step(0.55, rnd);
      col += vec3(0.6, 0.62, 0.75) * drop * (i == 0 ? 0.1 : 0.16) * uRain;
    }
  }
  // Vignette, a touch of grain so the gradients never band.
  vec2 v = gl_FragCoord.xy / uRes - 0.5;
  col *= 1.0 - 0.35 * dot(v, v) * 1.6;
  col += (hash2(gl_FragCoord.xy + fract(t) * 31.0) - 0.5) / 255.0;
  col = pow(col, vec3(0.95));
  gl_FragColor = vec4(col, 1.0);
}
