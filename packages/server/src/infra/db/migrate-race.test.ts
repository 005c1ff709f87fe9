import { describe, expect, it } from 'vitest';
import { isOtherSchemaGone } from './migrate.js';

describe('migrations: another schema dropped during Kysely’s table list', () => {
  const gone = (schema: string) =>
    Object.assign(new Error(`schema "${schema}" does not exist`), { code: '3F000' });

  it('is retried when the vanished schema is another one', () => {
    expect(isOtherSchemaGone(gone('coffer_test_other'), 'coffer_test_mine')).toBe(true);
  });

  it('is not when it is our own schema, or another error', () => {
    expect(isOtherSchemaGone(gone('coffer_test_mine'), 'coffer_test_mine')).toBe(false);
    expect(isOtherSchemaGone(new Error('connection refused'), 'coffer_test_mine')).toBe(false);
    expect(isOtherSchemaGone(undefined, 'coffer_test_mine')).toBe(false);
  });
});
