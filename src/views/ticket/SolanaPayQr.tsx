import { encode } from 'uqr';

/** A Solana Pay transfer request as a QR code (SVG, one path). Loaded on demand. */
export default function SolanaPayQr({ url }: { url: string }) {
  const { data, size } = encode(url, { border: 2 });
  let path = '';
  data.forEach((row, y) =>
    row.forEach((dark, x) => {
      if (dark) path += `M${x} ${y}h1v1h-1z`;
    }),
  );
  return (
    <svg
      className="ticket-qr-code"
      viewBox={`0 0 ${size} ${size}`}
      role="img"
      aria-label="Solana Pay QR code for the ticket transfer"
      shapeRendering="crispEdges"
    >
      <rect width={size} height={size} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}
