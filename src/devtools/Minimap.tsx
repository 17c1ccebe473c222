import { useRef, type PointerEvent as ReactPointerEvent } from 'react';
import type { Layout } from './layout';

/** The part of a chart in its window, in the chart's own units. */
export type View = { left: number; top: number; width: number; height: number };

const MAX_WIDTH = 168;
const MAX_HEIGHT = 120;

/**
 * The whole chart, small, in the corner of its window: states as boxes (the active ones marked),
 * the part in the window framed. A click or a drag on it brings that part of the chart into view.
 */
export function Minimap({
  layout,
  active,
  view,
  size,
  onGo,
}: {
  layout: Layout;
  active: Set<string>;
  view: View;
  size: { width: number; height: number };
  onGo: (x: number, y: number) => void;
}) {
  const svg = useRef<SVGSVGElement>(null);
  const dragging = useRef(false);
  const scale = Math.min(MAX_WIDTH / size.width, MAX_HEIGHT / size.height);
  const go = (event: ReactPointerEvent<SVGSVGElement>) => {
    const box = svg.current?.getBoundingClientRect();
    if (!box) return;
    onGo((event.clientX - box.left) / scale - 4, (event.clientY - box.top) / scale - 4);
  };
  return (
    <svg
      ref={svg}
      className="devtools-minimap"
      data-testid="chart-minimap"
      viewBox={`-4 -4 ${size.width} ${size.height}`}
      width={size.width * scale}
      height={size.height * scale}
      role="img"
      aria-label="Minimap: the whole chart, the part in view framed"
      onPointerDown={(event) => {
        dragging.current = true;
        go(event);
        event.currentTarget.setPointerCapture(event.pointerId);
      }}
      onPointerMove={(event) => {
        if (dragging.current) go(event);
      }}
      onPointerUp={() => {
        dragging.current = false;
      }}
      onPointerCancel={() => {
        dragging.current = false;
      }}
    >
      {layout.nodes.map((n) => (
        <rect
          key={n.id}
          x={n.x}
          y={n.y}
          width={n.width}
          height={n.height}
          rx={6}
          className={`${n.compound ? 'compound' : 'leaf'}${active.has(n.id) ? ' active' : ''}`}
        />
      ))}
      <rect
        className="devtools-minimap-view"
        data-testid="minimap-view"
        x={view.left - 4}
        y={view.top - 4}
        width={view.width}
        height={view.height}
      />
    </svg>
  );
}
