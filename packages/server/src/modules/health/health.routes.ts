import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../../infra/db/schema.js';
import type { BlobStore } from '../../infra/storage/blob-store.js';
import { checkReadiness } from './readiness.js';

export interface HealthDeps {
  version: string;
  db: Kysely<DB>;
  blobStore: BlobStore;
}

/**
 * `/health`: liveness (the process answers; no dependency checked, so a database outage does not get
 * every instance restarted). `/ready`: readiness for a load balancer: 200 when the database, its
 * migrations and the blob store are all there, else 503 with what is missing.
 */
export function healthRoutes(app: FastifyInstance, deps: HealthDeps): void {
  app.get('/health', () => ({ status: 'ok' as const, version: deps.version }));
  app.get('/ready', async (_request, reply) => {
    const readiness = await checkReadiness(deps.db, deps.blobStore);
    return reply
      .status(readiness.ready ? 200 : 503)
      .header('cache-control', 'no-store')
      .send({
        status: readiness.ready ? 'ready' : 'not-ready',
        version: deps.version,
        checks: readiness.checks,
      });
  });
}
