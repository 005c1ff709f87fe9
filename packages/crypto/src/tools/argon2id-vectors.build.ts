import { argon2id } from 'hash-wasm';
import { base64ToBytes } from '../base64.codec.js';
import { bytesToHex, hexToBytes, toBufferSource, utf8Bytes } from '../bytes.util.js';
import { ARGON2ID_PARAMS, deriveArgon2idWrapKey, type Argon2idParams } from '../kdf.argon2.js';
import { sealPrivateKeyRecord } from '../private-key.record.js';
import { deriveRecoveryWrapKey, recoveryKitId, sealRecoveryWrap } from '../recovery-kit.js';
import { sealSigningKeyWithWrapKey } from '../signing-key.record.js';
import { entropyToMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import type { KeyVectors, SignatureVectors } from './test-vectors.build.js';

// Builds test-vectors/argon2id-v1.json (issue 29): an Argon2id RSA private key record, an Argon2id
// signing key record and a recovery wrap, all from fixed inputs, so every byte is reproducible.

export interface Argon2idVectors {
  description: string;
  format: 'coffer-v1';
  password: string;
  passwordUtf8Hex: string;
  saltHex: string;
  kdf: Argon2idParams;
  /** Argon2id(password, salt, kdf), 32 bytes: the AES-256-GCM wrap key of both records. */
  wrapKeyHex: string;
  privateKeyRecord: { rev: number; ivHex: string; aad: string; recordJson: string };
  signingKeyRecord: {
    algorithm: 'Ed25519';
    pkcs8B64: string;
    rev: number;
    ivHex: string;
    aad: string;
    recordJson: string;
  };
  recoveryWrap: {
    secretHex: string;
    words: string;
    kitId: string;
    /** HKDF-SHA256(secret, empty salt, info "coffer-v1/recovery-kit/wrap"), 32 bytes. */
    wrapKeyHex: string;
    keyId: string;
    purpose: 'private-key';
    aad: string;
    ivHex: string;
    /** The RSA key of keys-v1.json, sealed under the recovery key. */
    wrapJson: string;
  };
}

export const ARGON2ID_VECTOR_PASSWORD = 'Correct-Horse-9! ünïcödé';
export const ARGON2ID_VECTOR_SALT_HEX = '000102030405060708090a0b0c0d0e0f';
export const RECOVERY_VECTOR_SECRET_HEX = '7f'.repeat(32);
const RSA_IV_HEX = 'b0b1b2b3b4b5b6b7b8b9babb';
const SIGNING_IV_HEX = 'c0c1c2c3c4c5c6c7c8c9cacb';
const RECOVERY_IV_HEX = 'd0d1d2d3d4d5d6d7d8d9dadb';
const REV = 1;

export async function buildArgon2idVectors(
  keys: KeyVectors,
  signatures: SignatureVectors,
): Promise<Argon2idVectors> {
  const saltBytes = hexToBytes(ARGON2ID_VECTOR_SALT_HEX);
  const kdf: Argon2idParams = { ...ARGON2ID_PARAMS };
  const rawWrapKey = await argon2id({
    password: utf8Bytes(ARGON2ID_VECTOR_PASSWORD),
    salt: saltBytes,
    parallelism: kdf.parallelism,
    iterations: kdf.passes,
    memorySize: kdf.memoryKiB,
    hashLength: 32,
    outputType: 'binary',
  });
  const rsaPkcs8 = base64ToBytes(keys.userKeyPair.pkcs8B64);
  const recordJson = await sealPrivateKeyRecord(rsaPkcs8, ARGON2ID_VECTOR_PASSWORD, {
    iterations: 0,
    kdf,
    rev: REV,
    saltBytes,
    ivBytes: hexToBytes(RSA_IV_HEX),
  });
  const wrapKey = await deriveArgon2idWrapKey(ARGON2ID_VECTOR_PASSWORD, saltBytes, kdf);
  const signingPkcs8 = base64ToBytes(signatures.signingKey.pkcs8B64);
  const signingJson = await sealSigningKeyWithWrapKey(
    { pkcs8Bytes: signingPkcs8, algorithm: 'Ed25519' },
    wrapKey,
    {
      iterations: 0,
      kdf,
      rev: REV,
      saltBytes,
      ivBytes: hexToBytes(SIGNING_IV_HEX),
    },
  );

  const secretBytes = hexToBytes(RECOVERY_VECTOR_SECRET_HEX);
  const kitId = await recoveryKitId(secretBytes);
  const hkdfKey = await crypto.subtle.importKey('raw', toBufferSource(secretBytes), 'HKDF', false, [
    'deriveBits',
  ]);
  const recoveryKeyBytes = new Uint8Array(
    await crypto.subtle.deriveBits(
      {
        name: 'HKDF',
        hash: 'SHA-256',
        salt: new Uint8Array(0),
        info: utf8Bytes('coffer-v1/recovery-kit/wrap'),
      },
      hkdfKey,
      256,
    ),
  );
  const context = { kitId, keyId: 'key-1', purpose: 'private-key' as const };
  const wrapJson = await sealRecoveryWrap(
    rsaPkcs8,
    await deriveRecoveryWrapKey(secretBytes),
    context,
    hexToBytes(RECOVERY_IV_HEX),
  );
  return {
    description:
      'coffer-v1 Argon2id key records and a recovery wrap (issue 29). Records: data = AES-256-GCM(Argon2id(password UTF-8, salt), iv, aad, PKCS#8). Recovery: data = AES-256-GCM(HKDF-SHA256(secret, "", "coffer-v1/recovery-kit/wrap"), iv, aad, PKCS#8); kitId = hex(SHA-256("coffer-v1/recovery-kit/id" || secret)[0..16]). RSA key: keys-v1.json; Ed25519 key: signatures-v1.json.',
    format: 'coffer-v1',
    password: ARGON2ID_VECTOR_PASSWORD,
    passwordUtf8Hex: bytesToHex(utf8Bytes(ARGON2ID_VECTOR_PASSWORD)),
    saltHex: ARGON2ID_VECTOR_SALT_HEX,
    kdf,
    wrapKeyHex: bytesToHex(rawWrapKey),
    privateKeyRecord: { rev: REV, ivHex: RSA_IV_HEX, aad: `coffer-v1/private-key/rev/${REV}`, recordJson },
    signingKeyRecord: {
      algorithm: 'Ed25519',
      pkcs8B64: signatures.signingKey.pkcs8B64,
      rev: REV,
      ivHex: SIGNING_IV_HEX,
      aad: `coffer-v1/signing-key/Ed25519/rev/${REV}`,
      recordJson: signingJson,
    },
    recoveryWrap: {
      secretHex: RECOVERY_VECTOR_SECRET_HEX,
      words: entropyToMnemonic(secretBytes, wordlist),
      kitId,
      wrapKeyHex: bytesToHex(recoveryKeyBytes),
      keyId: context.keyId,
      purpose: context.purpose,
      aad: `coffer-v1/recovery/private-key/${context.keyId}`,
      ivHex: RECOVERY_IV_HEX,
      wrapJson,
    },
  };
}
