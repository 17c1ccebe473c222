import type { Server } from 'node:http';
import { isIP, type Socket } from 'node:net';
import type { ProxyTrust } from './proxy';

/**
 * Open TCP connections per client address (RateLimits.connectionsPerAddress): HTTP keep-alive
 * connections, connections that never sent a request, and websockets (an upgraded connection
 * stays the same connection) all count, from the moment they connect until they close. One
 * address past the cap has each further connection closed as it arrives, before anything on it
 * is read; every other address connects as usual, so `/api/health` still answers under a flood.
 *
 * A client address is an IPv4 address, or an IPv6 /64 (one household's or one server's
 * network: an attacker with a /64 has effectively unlimited addresses). Connections from a
 * proxy of TRUST_PROXY are the proxy's, carrying many clients' requests: they are not counted
 * here (the proxy bounds its own upstream connections); what a client holds open through it for
 * long is its websockets, and those are capped per forwarded address at the upgrade
 * (RateLimits.socketsPerIp, server/realtime/rooms.ts).
 */
export type ConnectionCap = {
  /** Connections counted for the address (its key) now. */
  openFrom(address: string): number;
  /** Connections refused since the start. */
  refused(): number;
};

const IPV4_MAPPED = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i;

/** Hex groups of an IPv6 address, `::` expanded (8 groups), or null when it is not one. */
function ipv6Groups(address: string): string[] | null {
  if (isIP(address) !== 6) return null;
  const [head = '', tail] = address.split('::');
  const part = (text: string) => (text === '' ? [] : text.split(':'));
  const left = part(head);
  const right = tail === undefined ? [] : part(tail);
  const groups = [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return groups.length === 8 ? groups.map((g) => g.toLowerCase().replace(/^0+(?=.)/, '')) : null;
}

/** What connections count under: an IPv4 address itself, an IPv6 address's /64. */
export function connectionKey(address: string): string {
  const unmapped = IPV4_MAPPED.exec(address)?.[1] ?? address;
  if (isIP(unmapped) === 4) return unmapped;
  const groups = ipv6Groups(unmapped.split('%')[0] ?? '');
  return groups ? `${groups.slice(0, 4).join(':')}::/64` : unmapped;
}

export function capConnections(
  server: Server,
  options: {
    max: number;
    trust: ProxyTrust | undefined;
    log: { warn(message: string): void };
    now?: () => number;
  },
): ConnectionCap {
  const now = options.now ?? Date.now;
  const open = new Map<string, number>();
  let refused = 0;
  let warnedAt = -Infinity;
  const onConnection = (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    if (options.trust?.(address, 0)) return;
    const key = connectionKey(address);
    const count = open.get(key) ?? 0;
    if (count >= options.max) {
      refused += 1;
      // Nothing of it is read: no request on it reaches a route.
      socket.destroy();
      if (now() - warnedAt >= 60_000) {
        warnedAt = now();
        options.log.warn(
          `Connections refused: a client address holds ${count} open connections (the cap per address; logged once a minute)`,
        );
      }
      return;
    }
    open.set(key, count + 1);
    socket.once('close', () => {
      const left = (open.get(key) ?? 1) - 1;
      if (left > 0) open.set(key, left);
      else open.delete(key);
    });
  };
  // Before the HTTP server's own listener: a refused connection is closed before it is parsed.
  server.prependListener('connection', onConnection);
  return {
    openFrom: (address) => open.get(connectionKey(address)) ?? 0,
    refused: () => refused,
  };
}
