/** The site mark: a fedora over the initials, drawn inline so the loader needs no request. */
export function Logo({ size = 72 }: { size?: number }) {
  return (
    <svg
      className="logo"
      width={size}
      height={size}
      viewBox="0 0 64 64"
      role="img"
      aria-label="Solana Mafia Wars"
    >
      <circle cx="32" cy="32" r="30" fill="none" stroke="currentColor" strokeWidth="3" />
      <path d="M14 30h36l-4-4H18z" fill="currentColor" />
      <path d="M22 26l3-10h14l3 10z" fill="currentColor" />
      <text
        x="32"
        y="48"
        textAnchor="middle"
        fontSize="12"
        fontWeight="700"
        fill="currentColor"
        fontFamily="serif"
      >
        SMW
      </text>
    </svg>
  );
}
