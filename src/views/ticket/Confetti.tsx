import './confetti.css';

/** Gold and noir paper falling once over Access Granted! (none when motion is reduced). */
const PIECES = Array.from({ length: 28 }, (_, i) => ({
  left: (i * 37) % 100,
  delay: ((i * 53) % 900) / 1000,
  hue: i % 4,
  turn: (i * 47) % 360,
}));

export function Confetti() {
  return (
    <div className="confetti" aria-hidden="true" data-testid="confetti">
      {PIECES.map((p, i) => (
        <span
          key={i}
          className={`confetti-piece confetti-piece--${p.hue}`}
          style={{ left: `${p.left}%`, animationDelay: `${p.delay}s`, rotate: `${p.turn}deg` }}
        />
      ))}
    </div>
  );
}
