import { ArrowMarker } from './ArrowMarker';
import type { LiveEvent } from './inspector';
import { isHeartbeat, PAGE } from './EventLog';

const COLUMN = 150;
const ROW = 24;
const HEAD = 34;
const MAX_EVENTS = 40;

const OTHER_TAB = / \(other tab\)$/;
/** A promise actor's own settling (its outcome reaches its parent as `xstate.done.actor.…`). */
const INTERNAL = /^xstate\.promise\./;
const plain = (name: string) => name.replace(OTHER_TAB, '');

/**
 * The last events across actors as a sequence diagram: one lifeline per actor (the page first),
 * one arrow per event from its sender to its receiver, oldest at the top. What one actor hands
 * another (the app telling launch the calendar, session telling auth the user) reads as a line
 * between their two lifelines. Heartbeats are left out, as in the log, and a promise actor's own
 * settling (its outcome is the arrow to its parent).
 */
export function SequenceView({ events }: { events: LiveEvent[] }) {
  const shown = events
    .filter((e) => !isHeartbeat(e.event) && !INTERNAL.test(e.type))
    .slice(0, MAX_EVENTS)
    .reverse();
  const actors = [PAGE];
  for (const e of shown) {
    for (const name of [e.from ?? PAGE, plain(e.actor)]) {
      if (!actors.includes(name)) actors.push(name);
    }
  }
  const x = (name: string) => actors.indexOf(name) * COLUMN + COLUMN / 2;
  const width = actors.length * COLUMN;
  const height = HEAD + shown.length * ROW + 8;
  return (
    <details className="devtools-sequence" data-testid="sequence">
      <summary>
        Sequence across actors: the last {shown.length} events, who sent each to whom
      </summary>
      {shown.length === 0 ? (
        <p className="devtools-muted">No events yet: open the site in another tab.</p>
      ) : (
        <div className="devtools-sequence-frame">
          <svg
            width={width}
            height={height}
            viewBox={`0 0 ${width} ${height}`}
            role="img"
            aria-label="Sequence of the last events across actors"
          >
            <ArrowMarker id="sequence-arrow" />
            {actors.map((name) => (
              <g key={name} className="devtools-lifeline" data-actor={name}>
                <text x={x(name)} y={18} textAnchor="middle">
                  {name}
                </text>
                <line x1={x(name)} y1={HEAD - 8} x2={x(name)} y2={height} />
              </g>
            ))}
            {shown.map((e, i) => {
              const from = e.from ?? PAGE;
              const to = plain(e.actor);
              const y = HEAD + i * ROW + 14;
              const [x1, x2] = [x(from), x(to)];
              const self = from === to;
              return (
                <g
                  key={`${e.at}-${i}`}
                  className="devtools-message"
                  data-from={from}
                  data-to={to}
                  data-event-type={e.type}
                >
                  {self ? (
                    <polyline
                      points={`${x1},${y - 6} ${x1 + 22},${y - 6} ${x1 + 22},${y} ${x1 + 2},${y}`}
                      markerEnd="url(#sequence-arrow)"
                    />
                  ) : (
                    <line
                      x1={x1}
                      y1={y}
                      x2={x2 + (x2 > x1 ? -2 : 2)}
                      y2={y}
                      markerEnd="url(#sequence-arrow)"
                    />
                  )}
                  <text
                    x={self ? x1 + 26 : (x1 + x2) / 2}
                    y={y - 4}
                    textAnchor={self ? 'start' : 'middle'}
                  >
                    {e.type}
                  </text>
                </g>
              );
            })}
          </svg>
        </div>
      )}
    </details>
  );
}
