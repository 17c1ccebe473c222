/** The API host's base URL, ending in `/`: VITE_API_URL at build time, else same-origin `/api/`. */
export function defaultBaseUrl(): string {
  const fromEnv = import.meta.env?.VITE_API_URL;
  const base = typeof fromEnv === 'string' && fromEnv.length > 0 ? fromEnv : '/api/';
  return base.endsWith('/') ? base : `${base}/`;
}
