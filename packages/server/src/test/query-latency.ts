import { setTimeout as sleep } from 'node:timers/promises';
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult } from 'kysely';
import type { Database } from '../infra/db/database.js';

/**
 * The same database, answering every query after a random 0..`maxMs` ms, as a loaded server does. Tests
 * of concurrent requests use it so that requests interleave between their queries, where a check-then-act
 * race lives, instead of running one after the other by the luck of the event loop.
 */
export function withQueryLatency(database: Database, maxMs: number): Database {
  const plugin: KyselyPlugin = {
    transformQuery: (args: PluginTransformQueryArgs) => args.node,
    async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<Record<string, unknown>>> {
      await sleep(Math.random() * maxMs);
      return args.result;
    },
  };
  // The destroy of the original still closes the one pool both share.
  return { ...database, db: database.db.withPlugin(plugin) };
}
