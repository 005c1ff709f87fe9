import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';
import { DatabaseError } from './errors.js';

/**
 * Parses a 64-bit integer from its decimal text (PostgreSQL `int8`, e.g. sizes and `count(*)`) into a
 * JS number. Sizes exceed 2^31 but stay far below 2^53; a value beyond the exact range is refused
 * rather than silently rounded.
 */
export function parseInt8(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value)) {
    throw new DatabaseError(`integer ${text} from the database is outside the safe range of a JS number`);
  }
  return value;
}

function toSafeNumber(value: bigint): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER)) {
    throw new DatabaseError(`integer ${value} from the database is outside the safe range of a JS number`);
  }
  return Number(value);
}

/**
 * better-sqlite3 runs with `safeIntegers` on, so every INTEGER arrives as a bigint; this plugin turns them
 * back into numbers and refuses any beyond 2^53, the same rule `parseInt8` applies to PostgreSQL.
 * Without it better-sqlite3 would round such values without a word.
 */
export class SafeIntegerPlugin implements KyselyPlugin {
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return args.node;
  }

  transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const { result } = args;
    for (const row of result.rows) {
      for (const [key, value] of Object.entries(row)) {
        if (typeof value === 'bigint') row[key] = toSafeNumber(value);
      }
    }
    return Promise.resolve(result);
  }
}
