/**
 * Prometheus metrics at GET /metrics (prom-client), served only when METRICS_TOKEN is set and
 * only to `Authorization: Bearer <METRICS_TOKEN>`; without the variable the path is a 404 like any
 * unknown one. Each server has its own registry: the process's default metrics (CPU, memory,
 * event loop, handles) and the launch's own, named `smw_*`.
 */
import { timingSafeEqual } from 'node:crypto';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { SolanaRpc } from './chain/rpcClient';
import type { ServerPlugin } from './context';
import { HttpError } from './http';

const METRICS_PATH = '/metrics';

const sameToken = (given: string, expected: string): boolean => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

/** Wraps every call of a chain client with a count by method and outcome. */
function instrumentRpc(rpc: SolanaRpc, calls: Counter<'method' | 'outcome'>): SolanaRpc {
  const wrapped = {} as Record<string, unknown>;
  for (const [method, fn] of Object.entries(rpc) as [
    string,
    (...a: unknown[]) => Promise<unknown>,
  ][])
    wrapped[method] = async (...args: unknown[]) => {
      try {
        const result = await fn(...args);
        calls.inc({ method, outcome: 'ok' });
        return result;
      } catch (error) {
        calls.inc({ method, outcome: 'error' });
        throw error;
      }
    };
  return wrapped as SolanaRpc;
}

export const metricsPlugin: ServerPlugin = {
  name: 'metrics',
  setup(ctx, host) {
    const token = ctx.config.metricsToken;
    if (!token) return;
    const registry = new Registry();
    collectDefaultMetrics({ register: registry });
    const counter = <L extends string>(name: string, help: string, labelNames: readonly L[]) =>
      new Counter<L>({ name, help, labelNames, registers: [registry] });
    const requests = counter(
      'smw_http_requests_total',
      'HTTP requests answered, by method, route pattern and status code',
      ['method', 'route', 'status'],
    );
    const latency = new Histogram({
      name: 'smw_http_request_duration_seconds',
      help: 'Time to answer an HTTP request, by method and route pattern',
      labelNames: ['method', 'route'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    });
    const codesSent = counter(
      'smw_codes_sent_total',
      'Sign-in codes sent, by way (mail, log, outbox)',
      ['via'],
    );
    const codesFailed = counter(
      'smw_codes_failed_total',
      'Sign-in code e-mails that could not be delivered (after their retry)',
      [],
    );
    const mailRefused = counter(
      'smw_mail_refused_total',
      'Code e-mails refused by a mail limit, by limit (site, domain)',
      ['limit'],
    );
    const settled = counter(
      'smw_tickets_settled_total',
      'Tickets settled (paid, access granted), by tier',
      ['tier'],
    );
    const rpcCalls = counter(
      'smw_rpc_calls_total',
      'Calls to the Solana JSON-RPC, by method and outcome (ok, error)',
      ['method', 'outcome'],
    );
    new Gauge({
      name: 'smw_sockets_open',
      help: 'Open signed-in websockets',
      registers: [registry],
      collect() {
        this.set(ctx.services.realtime?.stats().connections ?? 0);
      },
    });

    if (ctx.services.rpc) ctx.services.rpc = instrumentRpc(ctx.services.rpc, rpcCalls);
    const off = [
      ctx.events.on('code.sent', ({ via }) => codesSent.inc({ via })),
      ctx.events.on('code.failed', () => codesFailed.inc()),
      ctx.events.on('mail.refused', ({ limit }) => mailRefused.inc({ limit })),
      ctx.events.on('ticket.settled', ({ tier }) => settled.inc({ tier })),
    ];
    host.onClose(() => off.forEach((stop) => stop()));

    host.fastify.addHook('onResponse', async (req, reply) => {
      const route = req.routeOptions.url ?? 'unmatched';
      requests.inc({ method: req.method, route, status: String(reply.statusCode) });
      latency.observe({ method: req.method, route }, reply.elapsedTime / 1000);
    });

    host.fastify.get(METRICS_PATH, async (req, reply) => {
      const header = req.headers.authorization ?? '';
      const given = header.startsWith('Bearer ') ? header.slice(7) : '';
      if (!sameToken(given, token))
        throw new HttpError(401, 'Metrics need the bearer token', {
          'WWW-Authenticate': 'Bearer realm="metrics"',
        });
      return reply
        .header('Cache-Control', 'no-store')
        .type(registry.contentType)
        .send(await registry.metrics());
    });
  },
};
