import { createServer } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { MetricsConfig } from '../../config.js';
import { registerHttpMetrics } from '../../http/http-metrics.js';
import type { Database } from '../db/database.js';
import { createMetricsRegistry, PROMETHEUS_CONTENT_TYPE } from './metrics-registry.js';
import type { MetricsRegistry } from './metrics-registry.js';
import type { SweepReporter } from './sweep-report.js';

export interface AppMetrics {
  registry: MetricsRegistry;
  /** For the upload sweeper's `onSweep`. */
  onSweep: SweepReporter;
}

/**
 * Prometheus metrics of one instance, served at `GET /metrics` on their own port (`METRICS_PORT`), never
 * through the app's port: the proxy in front of the app does not expose them. The port opens when the
 * app is ready and closes last on shutdown, so a drain can be watched to its end.
 */
export function registerAppMetrics(
  app: FastifyInstance,
  config: MetricsConfig,
  database: Database,
): AppMetrics {
  const registry = createMetricsRegistry();
  registerHttpMetrics(app, registry);

  const { poolStats } = database;
  if (poolStats !== undefined) {
    registry.gauge('coffer_db_pool_connections', 'PostgreSQL pool connections, by state.', () => {
      const stats = poolStats();
      return [
        { labels: { state: 'busy' }, value: stats.total - stats.idle },
        { labels: { state: 'idle' }, value: stats.idle },
        { labels: { state: 'max' }, value: stats.max },
      ];
    });
    registry.gauge('coffer_db_pool_waiting', 'Queries waiting for a PostgreSQL pool connection.', () => [
      { value: poolStats().waiting },
    ]);
  }
  const sweeps = registry.counter('coffer_sweeper_runs_total', 'Upload sweeps run, by result (ok, failed).');
  const swept = registry.counter('coffer_sweeper_aborted_uploads_total', 'Stale uploads the sweeps aborted.');

  const server = createServer((req, res) => {
    if (req.method === 'GET' && req.url?.split('?')[0] === '/metrics') {
      res.writeHead(200, { 'content-type': PROMETHEUS_CONTENT_TYPE }).end(registry.render());
    } else {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found: GET /metrics\n');
    }
  });
  app.addHook('onReady', async () => {
    server.listen(config.port, config.host);
    await once(server, 'listening');
    // The port bound, not the one asked for: METRICS_PORT=0 picks a free one.
    app.log.info({ port: (server.address() as AddressInfo).port, host: config.host }, 'metrics at /metrics');
  });
  app.addHook('onClose', async () => {
    if (!server.listening) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => {
      server.close(() => {
        resolve();
      });
    });
  });

  return {
    registry,
    onSweep(outcome) {
      sweeps.inc({ result: outcome.ok ? 'ok' : 'failed' });
      if (outcome.ok) swept.inc({}, outcome.swept);
    },
  };
}
