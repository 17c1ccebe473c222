/** The arrowhead the chart's transitions and the sequence's messages end in (`url(#id)`). */
export function ArrowMarker({ id }: { id: string }) {
  return (
    <defs>
      <marker
        id={id}
        viewBox="0 0 10 10"
        refX="9"
        refY="5"
        markerWidth="7"
        markerHeight="7"
        orient="auto-start-reverse"
      >
        <path d="M0,0 L10,5 L0,10 z" className="devtools-arrow" />
      </marker>
    </defs>
  );
}
