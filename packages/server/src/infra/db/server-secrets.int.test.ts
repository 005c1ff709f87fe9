import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectsUnderTest } from '../../test/db.js';
import type { TestDatabase } from '../../test/db.js';
import { loadOrCreateServerSecret } from './server-secrets.js';

describe.each(dialectsUnderTest)('server secrets on $name ($backend)', ({ open }) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await open();
  });
  afterAll(() => t.destroy());

  it('makes one 32-byte secret per name, which instances starting at once all read', async () => {
    const [first, ...others] = await Promise.all(
      Array.from({ length: 4 }, () => loadOrCreateServerSecret(t.db, 'race')),
    );
    expect(first?.byteLength).toBe(32);
    for (const other of others) expect(Buffer.from(other)).toEqual(Buffer.from(first ?? []));
    expect(Buffer.from(await loadOrCreateServerSecret(t.db, 'race'))).toEqual(Buffer.from(first ?? []));
    expect(Buffer.from(await loadOrCreateServerSecret(t.db, 'another'))).not.toEqual(
      Buffer.from(first ?? []),
    );
  });
});
