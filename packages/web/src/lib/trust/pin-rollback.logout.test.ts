import { PinSetRollbackError } from '@coffer/crypto';
import { describe, expect, it } from 'vitest';
import { createTestAppSession, TEST_MASTER_KEY, testUser } from '../../session/testing/test-session';
import { makeTrustIdentity, servedKeyOf } from './testing/trust-identities';

describe('pin set rollback across a logout (issue 13)', () => {
  it('a server replaying an older pin set after logout and login is caught', async () => {
    const before = await createTestAppSession({ unlocked: true });
    const [bob, carol] = await Promise.all([
      makeTrustIdentity('bob@example.com'),
      makeTrustIdentity('carol@example.com'),
    ]);
    await before.trust.checkContact(bob.email, servedKeyOf(bob));
    const older = before.pinsServer.stored;
    await before.trust.checkContact(carol.email, servedKeyOf(carol));

    // Logout empties session and local storage (spec section 4); the high-water mark survives it.
    await before.logout();
    expect(before.storage.length).toBe(0);

    // The same browser, signed in and unlocked again; the server serves the older genuine copy.
    const after = await createTestAppSession({ reloadOf: before });
    after.pinsServer.stored = older;
    after.auth.setUser(testUser);
    await after.encryption.unlock(TEST_MASTER_KEY);
    await expect(after.trust.open()).rejects.toBeInstanceOf(PinSetRollbackError);
    await expect(after.trust.checkContact(bob.email, servedKeyOf(bob))).rejects.toBeInstanceOf(
      PinSetRollbackError,
    );
  });
});
