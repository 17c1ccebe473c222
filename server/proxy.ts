import type { IncomingMessage, Server } from 'node:http';
import { BlockList, isIP } from 'node:net';

/**
 * Trusted proxies (TRUST_PROXY): behind a proxy every request arrives from the proxy's address,
 * so the client's own address is read from `X-Forwarded-For`, but only as far as the hops that
 * brought it are proxies of this deployment. Without a list the socket's address is the client,
 * and an `X-Forwarded-For` a client sends is never believed.
 *
 * One function decides, for Fastify's `trustProxy` (request ip, limits, logs, invite clicks) and
 * for the websocket upgrade (connections per address), with the walk Fastify's proxy-addr makes:
 * from the socket's address towards the client, stop at the first address that is not a
 * trusted proxy.
 */
export type ProxyTrust = (address: string, hop: number) => boolean;

const IPV4_MAPPED = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i;

/** `::ffff:10.0.0.1` is 10.0.0.1: a dual-stack socket's way of writing an IPv4 peer. */
const plain = (address: string): string => IPV4_MAPPED.exec(address)?.[1] ?? address;

/**
 * The entries of TRUST_PROXY: addresses and CIDR ranges (IPv4 or IPv6), separated by commas or
 * spaces. Anything else throws, naming the entry, so a typo refuses to start instead of
 * trusting nothing (or everything).
 */
export function parseTrustProxy(value: string | undefined): string[] {
  const entries = (value ?? '').split(/[\s,]+/).filter(Boolean);
  for (const entry of entries) {
    const [address = '', bits, extra] = entry.split('/');
    const family = isIP(address);
    const max = family === 4 ? 32 : 128;
    const validBits =
      bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) >= 0 && Number(bits) <= max);
    if (family === 0 || extra !== undefined || !validBits)
      throw new Error(
        `TRUST_PROXY must list proxy addresses or CIDR ranges (like 127.0.0.1,10.0.0.0/8), got ${entry}`,
      );
  }
  return entries;
}

/** The trust function of a list of addresses and CIDRs; undefined when the list is empty. */
export function proxyTrust(entries: readonly string[]): ProxyTrust | undefined {
  if (entries.length === 0) return undefined;
  const list = new BlockList();
  for (const entry of parseTrustProxy(entries.join(','))) {
    const [address = '', bits] = entry.split('/');
    const family = isIP(address) === 4 ? 'ipv4' : 'ipv6';
    const unmapped = plain(address);
    const unmappedFamily = isIP(unmapped) === 4 ? 'ipv4' : family;
    if (bits === undefined) list.addAddress(unmapped, unmappedFamily);
    else list.addSubnet(address, Number(bits), family);
  }
  return (address) => {
    const candidate = plain(address.trim());
    const family = isIP(candidate);
    return family !== 0 && list.check(candidate, family === 4 ? 'ipv4' : 'ipv6');
  };
}

/**
 * The client's address of a raw request: the socket's address, then each `X-Forwarded-For`
 * entry from the right as long as the address before it is a trusted proxy.
 */
export function clientAddress(req: IncomingMessage, trust: ProxyTrust | undefined): string {
  const socketAddress = req.socket.remoteAddress ?? '';
  if (!trust) return socketAddress;
  const header = req.headers['x-forwarded-for'];
  const forwarded = (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .reverse();
  const hops = [socketAddress, ...forwarded];
  let hop = 0;
  while (hop < hops.length - 1 && trust(hops[hop]!, hop)) hop += 1;
  return hops[hop]!;
}

const trustOfServer = new WeakMap<Server, ProxyTrust>();

/** Records the trusted proxies of a server, for what reads its raw requests (the websocket). */
export function setProxyTrust(server: Server, trust: ProxyTrust | undefined): void {
  if (trust) trustOfServer.set(server, trust);
  else trustOfServer.delete(server);
}

/** The client's address of a raw request to `server`, by that server's trusted proxies. */
export const clientAddressOf = (server: Server, req: IncomingMessage): string =>
  clientAddress(req, trustOfServer.get(server));
