/**
 * The promo video's poster: a night skyline under the moon, drawn inline so it paints with the
 * page's first frame instead of waiting for a request of its own. Decorative (the play button
 * carries the label).
 */
export function PromoPoster() {
  return (
    <svg
      className="promo-poster"
      viewBox="0 0 960 540"
      width="960"
      height="540"
      aria-hidden="true"
      focusable="false"
      preserveAspectRatio="xMidYMid slice"
    >
      <defs>
        <linearGradient id="promo-sky" x1="0" y1="0" x2="0" y2="1">
          <stop offset="0" stopColor="#1b1410" />
          <stop offset="0.65" stopColor="#3a2616" />
          <stop offset="1" stopColor="#0d0b0a" />
        </linearGradient>
        <radialGradient id="promo-moon" cx="0.5" cy="0.5" r="0.5">
          <stop offset="0" stopColor="#f6dfa6" />
          <stop offset="0.7" stopColor="#d4a64a" />
          <stop offset="1" stopColor="#d4a64a" stopOpacity="0" />
        </radialGradient>
      </defs>
      <rect width="960" height="540" fill="url(#promo-sky)" />
      <circle cx="720" cy="150" r="95" fill="url(#promo-moon)" opacity="0.85" />
      <path
        fill="#0d0b0a"
        d="M0 330h70v210H0zM60 280h90v260H60zM150 360h60v180h-60zM205 230h80v310h-80zM205 230l40-40 40 40zM285 310h70v230h-70zM355 260h100v280H355zM455 340h55v200h-55zM510 200h70v340h-70zM540 160h10v40h-10zM580 300h95v240h-95zM675 250h70v290h-70zM745 330h90v210h-90zM835 270h125v270H835z"
      />
      <path
        fill="#d4a64a"
        opacity="0.55"
        d="M80 300h8v10h-8zM110 330h8v10h-8zM225 260h8v10h-8zM255 300h8v10h-8zM375 290h8v10h-8zM420 330h8v10h-8zM525 240h8v10h-8zM555 280h8v10h-8zM600 330h8v10h-8zM695 280h8v10h-8zM860 300h8v10h-8zM905 340h8v10h-8z"
      />
      <g transform="translate(430 380)" fill="#0d0b0a" stroke="#d4a64a" strokeWidth="2">
        <path d="M20 0c0-14 8-24 30-24s30 10 30 24z" />
        <path d="M-6 4c14-6 34-8 56-8s42 2 56 8c-14 6-34 9-56 9S8 10-6 4z" />
        <path d="M22 18h56v70H22z" />
      </g>
      <text
        x="480"
        y="505"
        textAnchor="middle"
        fontFamily="Georgia, serif"
        fontSize="34"
        fontWeight="700"
        fill="#f3ece2"
        letterSpacing="4"
      >
        SOLANA MAFIA WARS
      </text>
    </svg>
  );
}
