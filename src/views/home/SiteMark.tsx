/**
 * The header's mark (the favicon's drawing, public/favicon.svg), inline: an <img> would be a
 * document of its own, laid out and painted before the page, and a request the first paint does
 * not need.
 */
export function SiteMark() {
  return (
    <svg width="36" height="36" viewBox="0 0 64 64" aria-hidden="true" focusable="false">
      <circle cx="32" cy="32" r="30" fill="#15110e" stroke="#d4a64a" strokeWidth="3" />
      <path d="M19 33c0-8 3.5-15 13-15s13 7 13 15z" fill="#d4a64a" />
      <path d="M21 29.5h22" stroke="#15110e" strokeWidth="3" />
      <path d="M10 36c6-3 14-4 22-4s16 1 22 4c-6 3-14 4.5-22 4.5S16 39 10 36z" fill="#d4a64a" />
      <path d="M25 46h14" stroke="#d4a64a" strokeWidth="3" strokeLinecap="round" />
    </svg>
  );
}
