import { describe, expect, it } from 'vitest';
import { isOtherSchemaGone } from './migrate.js';

describe('migrations: another schema dropped during Kysely’s table list', () => {
  const gone = (schema: string) =>
    Object.assign(new Error(`schema "${schema}" does not exist`), { code: '3F000' });
  const tableGone = (relation: string) =>
    Object.assign(new Error(`relation "${relation}" does not exist`), { code: '42P01' });

  it('is retried when the vanished schema is another one', () => {
    expect(isOtherSchemaGone(gone('coffer_test_other'), 'coffer_test_mine')).toBe(true);
  });

  it('is retried when a table of another schema vanished (seen in CI: Kysely’s serial-sequence lookup)', () => {
    expect(isOtherSchemaGone(tableGone('coffer_test_other.upload_parts'), 'coffer_test_mine')).toBe(true);
  });

  it('is not when the missing table is ours, or unqualified (a migration’s own mistake)', () => {
    expect(isOtherSchemaGone(tableGone('coffer_test_mine.upload_parts'), 'coffer_test_mine')).toBe(false);
    expect(isOtherSchemaGone(tableGone('no_such_table'), 'coffer_test_mine')).toBe(false);
  });

  it('is not when it is our own schema, or another error', () => {
    expect(isOtherSchemaGone(gone('coffer_test_mine'), 'coffer_test_mine')).toBe(false);
    expect(isOtherSchemaGone(new Error('connection refused'), 'coffer_test_mine')).toBe(false);
    expect(isOtherSchemaGone(undefined, 'coffer_test_mine')).toBe(false);
  });
});
