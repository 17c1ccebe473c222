/**
 * One of the lobby's gang, standing on the key art's street (docs/design.md, "The lobby"): a
 * whole figure in fedora and long coat drawn in the text colour (the lobby draws it black,
 * rim-lit), in the three poses of the landing scene's gang: the one on the left smoking, the one
 * in the middle with a tommy gun, the one on the right with his hands in his pockets. Decoration
 * (the words beside it say how many Gangsters there are).
 */
type GangsterPose = 'smoking' | 'tommy-gun' | 'standing';

const POSES: readonly GangsterPose[] = ['smoking', 'tommy-gun', 'standing'];

/** The pose of the figure at `index`, repeating the scene's three from left to right. */
export const poseAt = (index: number): GangsterPose => POSES[index % POSES.length]!;

const FIGURE_WIDTH = 72;
const FIGURE_HEIGHT = 160;

/** The arms hanging at the coat's sides, a little apart from it. */
const HANGING = (
  <path d="M14 55Q8.5 58 8 67L6.5 101Q6.5 108 10 110.5Q13.5 110.5 13.5 104.5L15.2 74ZM50 55Q55.5 58 56 67L57.5 101Q57.5 108 54 110.5Q50.5 110.5 50.5 104.5L48.8 74Z" />
);

export function GangsterFigure({ pose }: { pose: GangsterPose }) {
  return (
    <svg
      className="gangster-figure"
      viewBox={`0 0 ${FIGURE_WIDTH} ${FIGURE_HEIGHT}`}
      fill="currentColor"
      aria-hidden="true"
      focusable="false"
      data-pose={pose}
    >
      {/* The fedora: its brim, then the crown with its pinch. */}
      <path d="M12 31C20 26.5 44 26.5 52 31C45 34.5 19 34.5 12 31Z" />
      <path d="M20 30.5L21.5 18Q27 13 32 16.5Q37 13 42.5 18L44 30.5Z" />
      {/* The face in the brim's shadow; the long coat from the shoulders to the knees, belted in. */}
      <path d="M25 33L39 33L38.2 43Q32 48.5 25.8 43Z" />
      <path d="M28 45L36 45L37 48.5Q46 50 50.5 55.5Q52 66 50.5 80L49 92Q51 108 53 124Q43 126.5 33.5 125L32 116L30.5 125Q21 126.5 11 124Q13 108 15 92L13.5 80Q12 66 13.5 55.5Q18 50 27 48.5Z" />
      {/* Legs and shoes. */}
      <path d="M20.5 124L29.5 124L29 152L20 152ZM34.5 124L43.5 124L44 152L35 152Z" />
      <path d="M15 151L29.5 151L29.5 156L14 156Q14 153 15 151ZM34.5 151L49 151Q50 153 50 156L34.5 156Z" />
      {pose === 'standing' && (
        /* Hands in the coat's pockets, elbows out. */
        <path d="M14 55Q8 60 7 72L6 86Q7 92 12 96L16.5 98L16 90L12.8 86L13.8 72ZM50 55Q56 60 57 72L58 86Q57 92 52 96L47.5 98L48 90L51.2 86L50.2 72Z" />
      )}
      {pose === 'smoking' && (
        <g className="gangster-figure-smoke">
          {HANGING}
          <path d="M38 40.6L47.4 39L47.7 40.8L38.3 42.2Z" />
          <circle cx="48" cy="39.9" r="1.4" fill="#ff7a3a" />
          <path
            d="M48.5 37.5q3.5-5.5-.5-10t1-11"
            fill="none"
            stroke="rgb(220 214 230 / 0.4)"
            strokeWidth="1.2"
            strokeLinecap="round"
          />
        </g>
      )}
      {pose === 'tommy-gun' && (
        <g className="gangster-figure-gun">
          {/* Both hands on it at the hip: the stock under one arm, the barrel out past the coat. */}
          <path d="M14 55Q8.5 58 8.5 68L9.5 88Q11 96 18 97L35 97.5L35 92L18 90L16 72ZM50 55Q55.5 58 56.5 67L59 94L55 95L50 75Z" />
          <path d="M26 90.5L14 95L13 100L26 96ZM26 90L58 90L58 95L38 95L36.5 103L32.5 103L34 95L26 95Z" />
          <path d="M58 91L71 91L71 93.5L58 93.5ZM60 89.8L66 89.8L66 94.7L60 94.7ZM56 94L57.5 101.5L60.5 101L59.5 94Z" />
          <circle cx="50" cy="101" r="6.5" />
        </g>
      )}
    </svg>
  );
}
