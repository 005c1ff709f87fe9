import type { FastifyInstance } from 'fastify';

export interface HealthDeps {
  version: string;
}

export function healthRoutes(app: FastifyInstance, deps: HealthDeps): void {
  app.get('/health', () => ({ status: 'ok' as const, version: deps.version }));
}
