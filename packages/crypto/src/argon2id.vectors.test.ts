import { Buffer } from 'node:buffer';
import { createCipheriv, createHash, hkdfSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { base64ToBytes } from './base64.codec.js';
import { bytesToHex, hexToBytes } from './bytes.util.js';
import { importPrivateKeyPkcs8 } from './key-pair.rsa.js';
import { assertOwnKeyPair } from './own-key.check.js';
import { parsePrivateKeyRecord } from './private-key.record.js';
import {
  deriveRecoveryWrapKey,
  openRecoveryWrap,
  recoveryKitId,
  recoveryWordsToSecret,
} from './recovery-kit.js';
import { parseSigningKeyRecord } from './signing-key.record.js';
import { buildArgon2idVectors, type Argon2idVectors } from './tools/argon2id-vectors.build.js';
import type { KeyVectors, SignatureVectors } from './tools/test-vectors.build.js';
import { unlockUserKeys } from './user-keys.setup.js';

// Pins test-vectors/argon2id-v1.json (docs/encryption.md sections 3, 7 and 16): this implementation
// reproduces every byte from the fixed inputs, and Node's own AES-GCM, HKDF and SHA-256 compute the
// same bytes from the documented rules. (The Argon2id output itself was checked once against the
// reference C library, libargon2: docs/encryption.md section 16.)
const read = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`../test-vectors/${name}`, import.meta.url), 'utf8'));
const vectors = read('argon2id-v1.json') as Argon2idVectors;
const keys = read('keys-v1.json') as KeyVectors;
const signatures = read('signatures-v1.json') as SignatureVectors;

function gcm(keyHex: string, ivHex: string, aad: string, plaintext: Uint8Array): string {
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(keyHex, 'hex'), Buffer.from(ivHex, 'hex'));
  cipher.setAAD(Buffer.from(aad, 'ascii'));
  return Buffer.concat([cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]).toString('base64');
}

describe('Argon2id and recovery test vectors', { timeout: 60_000 }, () => {
  it('are reproduced byte for byte by the implementation', async () => {
    expect(await buildArgon2idVectors(keys, signatures)).toEqual(vectors);
  });

  it('records: Node’s AES-GCM with the pinned Argon2id key and the documented AAD gives the same data', () => {
    expect(bytesToHex(new TextEncoder().encode(vectors.password))).toBe(vectors.passwordUtf8Hex);
    const rsa = JSON.parse(vectors.privateKeyRecord.recordJson) as Record<string, unknown>;
    expect(Object.keys(rsa)).toEqual(['iv', 'salt', 'data', 'kdf', 'rev']);
    expect(rsa.kdf).toEqual(vectors.kdf);
    expect(rsa.data).toBe(
      gcm(
        vectors.wrapKeyHex,
        vectors.privateKeyRecord.ivHex,
        'coffer-v1/private-key/rev/1',
        base64ToBytes(keys.userKeyPair.pkcs8B64),
      ),
    );
    const signing = JSON.parse(vectors.signingKeyRecord.recordJson) as Record<string, unknown>;
    expect(Object.keys(signing)).toEqual(['iv', 'salt', 'data', 'kdf', 'alg', 'rev']);
    expect(signing.salt).toBe(rsa.salt);
    expect(signing.data).toBe(
      gcm(
        vectors.wrapKeyHex,
        vectors.signingKeyRecord.ivHex,
        'coffer-v1/signing-key/Ed25519/rev/1',
        base64ToBytes(signatures.signingKey.pkcs8B64),
      ),
    );
    expect(parsePrivateKeyRecord(vectors.privateKeyRecord.recordJson).rev).toBe(1);
    expect(parseSigningKeyRecord(vectors.signingKeyRecord.recordJson).rev).toBe(1);
  });

  it('records unlock with the password to the vector keys', async () => {
    const unlocked = await unlockUserKeys(
      vectors.password,
      vectors.privateKeyRecord.recordJson,
      vectors.signingKeyRecord.recordJson,
    );
    await assertOwnKeyPair(keys.userKeyPair.publicKeyB64, unlocked.privateKey);
    expect(unlocked.signingPrivateKey?.algorithm.name).toBe('Ed25519');
  });

  it('recovery: words, kit id, HKDF key and wrap follow the documented rules', async () => {
    const kit = vectors.recoveryWrap;
    const secret = Buffer.from(kit.secretHex, 'hex');
    expect(bytesToHex(recoveryWordsToSecret(kit.words))).toBe(kit.secretHex);
    const kitId = createHash('sha256')
      .update('coffer-v1/recovery-kit/id')
      .update(secret)
      .digest('hex')
      .slice(0, 32);
    expect(kitId).toBe(kit.kitId);
    expect(await recoveryKitId(hexToBytes(kit.secretHex))).toBe(kit.kitId);
    const wrapKey = Buffer.from(
      hkdfSync('sha256', secret, Buffer.alloc(0), 'coffer-v1/recovery-kit/wrap', 32),
    );
    expect(wrapKey.toString('hex')).toBe(kit.wrapKeyHex);
    const wrap = JSON.parse(kit.wrapJson) as Record<string, unknown>;
    expect(Object.keys(wrap)).toEqual(['v', 'kitId', 'iv', 'data']);
    expect(wrap.data).toBe(gcm(kit.wrapKeyHex, kit.ivHex, kit.aad, base64ToBytes(keys.userKeyPair.pkcs8B64)));
    const pkcs8 = await openRecoveryWrap(
      kit.wrapJson,
      await deriveRecoveryWrapKey(hexToBytes(kit.secretHex)),
      {
        kitId: kit.kitId,
        keyId: kit.keyId,
        purpose: kit.purpose,
      },
    );
    await assertOwnKeyPair(keys.userKeyPair.publicKeyB64, await importPrivateKeyPkcs8(pkcs8));
  });
});
