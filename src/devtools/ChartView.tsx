import { ArrowMarker } from './ArrowMarker';
import {
  useCallback,
  useEffect,
  useRef,
  useState,
  type PointerEvent as ReactPointerEvent,
} from 'react';
import type { Chart } from './graph';
import { handlerText, layoutChart, type Layout } from './layout';
import { Minimap, type View } from './Minimap';

const ZOOMS = [0.25, 0.33, 0.5, 0.67, 0.8, 1, 1.25, 1.5, 2, 3];

/**
 * One machine drawn as a statechart (SVG), laid out by ELK; active states highlighted. The chart
 * is drawn at 100 % (its labels at their CSS size) in a viewport that scrolls: drag to pan,
 * Ctrl/⌘ + wheel or the buttons to zoom, Fit to see it whole; a chart larger than its window has
 * a minimap of the whole in the window's corner (the part in view framed; click or drag it to go).
 */
export function ChartView({ chart, active }: { chart: Chart; active: Set<string> }) {
  const [layout, setLayout] = useState<Layout | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [zoom, setZoom] = useState(1);
  const viewport = useRef<HTMLDivElement>(null);
  const drag = useRef<{ x: number; y: number; left: number; top: number } | null>(null);
  // A zoom keeps the point under the pointer (or the viewport's centre) where it was.
  const anchor = useRef<{ x: number; y: number; from: number } | null>(null);
  // The part of the chart in the window, in the chart's own units (for the minimap).
  const [view, setView] = useState<View | null>(null);
  const zoomNow = useRef(zoom);
  zoomNow.current = zoom;
  const measure = useCallback(() => {
    const el = viewport.current;
    if (!el) return;
    const z = zoomNow.current;
    const next = {
      left: el.scrollLeft / z,
      top: el.scrollTop / z,
      width: el.clientWidth / z,
      height: el.clientHeight / z,
    };
    setView((was) =>
      was && (Object.keys(next) as (keyof View)[]).every((k) => was[k] === next[k]) ? was : next,
    );
  }, []);
  useEffect(() => {
    const el = viewport.current;
    const at = anchor.current;
    if (!el || !at) return;
    anchor.current = null;
    const ratio = zoom / at.from;
    el.scrollLeft = (el.scrollLeft + at.x) * ratio - at.x;
    el.scrollTop = (el.scrollTop + at.y) * ratio - at.y;
  }, [zoom]);
  useEffect(measure, [measure, zoom, layout]);
  // The viewport exists once the layout is drawn; its size changes with the page's.
  useEffect(() => {
    const el = viewport.current;
    if (!el) return;
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [measure, layout]);

  // Ctrl/⌘ + wheel zooms (a listener of its own: React's wheel listener cannot preventDefault).
  useEffect(() => {
    const el = viewport.current;
    if (!el) return;
    const onWheel = (event: WheelEvent) => {
      if (!event.ctrlKey && !event.metaKey) return;
      event.preventDefault();
      const box = el.getBoundingClientRect();
      setZoom((from) => {
        const to = stepZoom(from, event.deltaY < 0 ? 1 : -1);
        anchor.current = { x: event.clientX - box.left, y: event.clientY - box.top, from };
        return to;
      });
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => el.removeEventListener('wheel', onWheel);
  }, [layout]);

  useEffect(() => {
    let cancelled = false;
    layoutChart(chart).then(
      (result) => {
        if (!cancelled) setLayout(result);
      },
      (e: unknown) => {
        if (!cancelled) setError(String(e));
      },
    );
    return () => {
      cancelled = true;
    };
  }, [chart]);

  const showActive = () => {
    const el = viewport.current;
    const leaf = layout?.nodes.filter((n) => active.has(n.id) && !n.compound).at(-1);
    if (!el || !leaf) return;
    el.scrollTo({
      left: Math.max(0, (leaf.x + leaf.width / 2 + 4) * zoom - el.clientWidth / 2),
      top: Math.max(0, (leaf.y + leaf.height / 2 + 4) * zoom - el.clientHeight / 2),
    });
  };

  // A chart larger than its window opens on the active state (once; then it is the developer's).
  const openedOnActive = useRef(false);
  useEffect(() => {
    if (openedOnActive.current || !layout || active.size === 0) return;
    openedOnActive.current = true;
    showActive();
  });

  if (error) return <p className="devtools-error">Layout failed: {error}</p>;
  if (!layout) return <p className="devtools-muted">Laying out…</p>;
  const byId = new Map(chart.nodes.map((n) => [n.id, n]));
  const markerId = `arrow-${chart.id}`;
  const width = layout.width + 8;
  const height = layout.height + 8;
  const zoomTo = (to: number) => {
    const el = viewport.current;
    if (el) anchor.current = { x: el.clientWidth / 2, y: el.clientHeight / 2, from: zoom };
    setZoom(to);
  };
  const fit = () => {
    const el = viewport.current;
    if (!el) return;
    setZoom(Math.min(1, (el.clientWidth - 2) / width, (el.clientHeight - 2) / height));
    el.scrollTo(0, 0);
  };
  const onPointerDown = (event: ReactPointerEvent<HTMLDivElement>) => {
    const el = viewport.current;
    if (!el || event.button !== 0) return;
    drag.current = { x: event.clientX, y: event.clientY, left: el.scrollLeft, top: el.scrollTop };
    el.setPointerCapture(event.pointerId);
  };
  const onPointerMove = (event: ReactPointerEvent<HTMLDivElement>) => {
    const el = viewport.current;
    const from = drag.current;
    if (!el || !from) return;
    el.scrollLeft = from.left - (event.clientX - from.x);
    el.scrollTop = from.top - (event.clientY - from.y);
  };
  const endDrag = () => {
    drag.current = null;
  };
  /** The minimap asks for the chart's point (x, y) in the middle of the window. */
  const centreOn = (x: number, y: number) => {
    const el = viewport.current;
    if (!el) return;
    el.scrollTo({
      left: (x + 4) * zoom - el.clientWidth / 2,
      top: (y + 4) * zoom - el.clientHeight / 2,
    });
  };
  return (
    <div className="devtools-chart-frame">
      <div className="devtools-zoom" role="toolbar" aria-label={`Zoom ${chart.id}`}>
        <button
          type="button"
          onClick={() => zoomTo(stepZoom(zoom, -1))}
          disabled={zoom <= ZOOMS[0]!}
          aria-label="Zoom out"
        >
          −
        </button>
        <button type="button" onClick={() => zoomTo(1)} aria-label="Actual size (100 %)">
          <span data-testid="chart-zoom">{Math.round(zoom * 100)} %</span>
        </button>
        <button
          type="button"
          onClick={() => zoomTo(stepZoom(zoom, 1))}
          disabled={zoom >= ZOOMS[ZOOMS.length - 1]!}
          aria-label="Zoom in"
        >
          +
        </button>
        <button type="button" onClick={fit}>
          Fit
        </button>
        <button type="button" onClick={showActive} disabled={active.size === 0}>
          Active state
        </button>
        <span className="devtools-muted">drag to pan · Ctrl + wheel to zoom</span>
      </div>
      <div className="devtools-viewport-wrap">
        <div
          ref={viewport}
          className="devtools-viewport"
          data-testid="chart-viewport"
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={endDrag}
          onPointerCancel={endDrag}
          onScroll={measure}
        >
          <svg
            className="devtools-chart"
            data-chart={chart.id}
            viewBox={`-4 -4 ${width} ${height}`}
            width={width * zoom}
            height={height * zoom}
            role="img"
            aria-label={`Statechart of ${chart.id}`}
          >
            <ArrowMarker id={markerId} />
            {layout.nodes.map((n) => {
              const node = byId.get(n.id);
              if (!node) return null;
              const isActive = active.has(n.id);
              const isInitial = node.parent ? byId.get(node.parent)?.initial === n.id : false;
              return (
                <g
                  key={n.id}
                  className={`devtools-node${n.compound ? ' compound' : ''}${isActive ? ' active' : ''}${node.type === 'final' ? ' final' : ''}`}
                  data-state-id={n.id}
                  data-active={isActive ? 'true' : undefined}
                >
                  <rect x={n.x} y={n.y} width={n.width} height={n.height} rx={8} />
                  <text x={n.x + 10} y={n.y + 18} className="devtools-node-title">
                    {isInitial ? '▸ ' : ''}
                    {node.key}
                    {node.type === 'parallel' ? ' ∥' : ''}
                    {node.type === 'final' ? ' ◉' : ''}
                  </text>
                  {node.invokes.map((inv, i) => (
                    <text
                      key={inv.id}
                      x={n.x + 10}
                      y={n.y + 34 + i * 16}
                      className="devtools-invoke"
                    >
                      invoke {inv.id}
                    </text>
                  ))}
                </g>
              );
            })}
            {layout.handlers.map((h) => (
              <g
                key={h.id}
                className={`devtools-edge handler ${h.kind}`}
                data-edge-label={h.label}
                data-source={h.node}
              >
                <text x={h.x} y={h.y}>
                  {handlerText(h.label)}
                </text>
              </g>
            ))}
            {layout.edges.map((e) =>
              e.points.length > 1 ? (
                <g key={e.id} className={`devtools-edge ${e.kind}`} data-edge-label={e.label}>
                  <polyline
                    points={e.points.map((p) => `${p.x},${p.y}`).join(' ')}
                    markerEnd={`url(#${markerId})`}
                  />
                  {e.labelBox ? (
                    <text x={e.labelBox.x} y={e.labelBox.y + e.labelBox.height - 3}>
                      {e.label}
                    </text>
                  ) : null}
                </g>
              ) : null,
            )}
          </svg>
        </div>
        {view && (view.width < width || view.height < height) ? (
          <Minimap
            layout={layout}
            active={active}
            view={view}
            size={{ width, height }}
            onGo={centreOn}
          />
        ) : null}
      </div>
    </div>
  );
}

/** The next zoom step up (+1) or down (−1) from `zoom`. */
function stepZoom(zoom: number, direction: 1 | -1): number {
  if (direction > 0) return ZOOMS.find((z) => z > zoom + 1e-6) ?? ZOOMS[ZOOMS.length - 1]!;
  return [...ZOOMS].reverse().find((z) => z < zoom - 1e-6) ?? ZOOMS[0]!;
}
