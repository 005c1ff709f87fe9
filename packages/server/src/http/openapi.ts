import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { escapeHtml } from './html-page.js';

interface OpenApiDoc {
  paths?: Record<string, Record<string, { summary?: string; tags?: string[] }>>;
}

/** A small static reference page, so the docs need no third-party scripts (and no CSP exceptions). */
function docsPage(doc: OpenApiDoc, version: string): string {
  const rows: string[] = [];
  for (const [path, ops] of Object.entries(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(ops)) {
      rows.push(
        `<tr><td><code>${escapeHtml(method.toUpperCase())}</code></td><td><code>${escapeHtml(path)}</code></td>` +
          `<td>${escapeHtml(op.tags?.join(', ') ?? '')}</td><td>${escapeHtml(op.summary ?? '')}</td></tr>`,
      );
    }
  }
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Coffer API ${escapeHtml(version)}</title>
<style>body{font-family:system-ui,sans-serif;margin:2rem;color:#1a1b1e}table{border-collapse:collapse}
td,th{border-bottom:1px solid #dee2e6;padding:.4rem .8rem;text-align:left}code{font-size:.9rem}</style></head>
<body><h1>Coffer API</h1><p>Version ${escapeHtml(version)}. Every call except <code>/api/health</code> needs
<code>Authorization: Bearer &lt;access token&gt;</code>. Errors are <code>{"code","message"}</code>.
The machine-readable description is <a href="/api/openapi.json">/api/openapi.json</a>.</p>
<table><thead><tr><th>Method</th><th>Path</th><th>Area</th><th>What it does</th></tr></thead><tbody>
${rows.join('\n')}</tbody></table></body></html>`;
}

/**
 * OpenAPI generated from the same TypeBox schemas the routes validate with, served at
 * `/api/openapi.json`, with a readable page at `/api/docs`. Register before the routes.
 */
export async function registerOpenApi(
  app: FastifyInstance,
  opts: { version: string; publicUrl: string },
): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Coffer API',
        version: opts.version,
        description:
          'End-to-end encrypted file storage and sharing. The server only ever handles ciphertext.',
      },
      servers: [{ url: opts.publicUrl }],
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      security: [{ bearer: [] }],
    },
  });
  app.get('/api/openapi.json', { schema: { hide: true } }, () => app.swagger());
  app.get('/api/docs', { schema: { hide: true } }, (_request, reply) =>
    reply.type('text/html; charset=utf-8').send(docsPage(app.swagger() as OpenApiDoc, opts.version)),
  );
}
