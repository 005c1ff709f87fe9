import { bytesToBase64 } from '../base64.codec.js';
import { bytesToHex, concatBytes, hexToBytes, utf8Bytes } from '../bytes.util.js';
import { chunkAad, encryptChunk } from '../chunk.cipher.js';
import { plainChunkLength, chunkCount } from '../content-size.math.js';
import { importFileKeyBytes } from '../file-key.wrap.js';
import { LEGACY_PBKDF2_ITERATIONS, PBKDF2_ITERATIONS } from '../format.constants.js';
import { exportPrivateKeyPkcs8, exportPublicKeyB64, generateUserKeyPair } from '../key-pair.rsa.js';
import { fingerprintSpki } from '../key.fingerprint.js';
import { sealPrivateKeyRecord } from '../private-key.record.js';
import { base64ToBytes } from '../base64.codec.js';
import { createKeyBinding, keyBindingMessage, parseKeyBinding } from '../key-binding.record.js';
import {
  fileManifestMessage,
  fileManifestSha256Hex,
  parseFileManifest,
  signFileManifest,
  signFileManifestV2,
} from '../file-manifest.record.js';
import { parseShareGrant, shareGrantMessage, signShareGrant } from '../share-grant.record.js';
import { pinSetAad, pinSetMessage, pinSetPlaintext, sealPinSetWith, type PinSet } from '../pin-set.record.js';
import { signBytes } from '../signing-key.pair.js';

// Builds the JSON of packages/crypto/test-vectors/. Content vectors are fully determined by their
// fixed inputs; key vectors contain a freshly generated RSA key and an RSA-OAEP ciphertext (OAEP is
// randomized), so regenerating them changes those bytes but not what the tests check.

export const VECTOR_FILE_KEY_HEX = '000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f';
export const VECTOR_CHUNK_SIZE = 16;

export interface ContentVectorChunk {
  index: number;
  isLast: boolean;
  aadHex: string;
  ivHex: string;
  plaintextHex: string;
  encryptedHex: string;
}

export interface ContentVector {
  name: string;
  chunkSize: number;
  plaintextHex: string;
  chunks: ContentVectorChunk[];
  /** The whole stored object: the chunks' `encryptedHex` concatenated. */
  encryptedHex: string;
  encryptedB64: string;
}

export interface ContentVectors {
  description: string;
  format: 'coffer-v1';
  fileKeyHex: string;
  vectors: ContentVector[];
}

const CONTENT_CASES: { name: string; plaintext: Uint8Array }[] = [
  { name: 'empty file: one empty last chunk', plaintext: new Uint8Array(0) },
  { name: 'short file: one partial chunk', plaintext: utf8Bytes('hello') },
  { name: 'exactly one chunk', plaintext: utf8Bytes('0123456789abcdef') },
  { name: 'exactly two chunks: the last is full', plaintext: utf8Bytes('coffer-v1 vector: two chunks.OK!') },
  {
    name: 'three chunks: the last is partial',
    plaintext: utf8Bytes('Attack at dawn! Bring the keys; leave the map.'),
  },
];

/** The fixed IV of chunk `index` in vector number `vector`: bytes vector, index, then 0xa0… */
export function vectorIv(vector: number, index: number): Uint8Array {
  const iv = new Uint8Array(12);
  iv[0] = vector;
  iv[1] = index;
  for (let i = 2; i < 12; i++) iv[i] = 0xa0 + i;
  return iv;
}

export async function buildContentVectors(): Promise<ContentVectors> {
  const fileKey = await importFileKeyBytes(hexToBytes(VECTOR_FILE_KEY_HEX));
  const vectors: ContentVector[] = [];
  for (const [vectorIndex, { name, plaintext }] of CONTENT_CASES.entries()) {
    const count = chunkCount(plaintext.length, VECTOR_CHUNK_SIZE);
    const chunks: ContentVectorChunk[] = [];
    for (let index = 0; index < count; index++) {
      const start = index * VECTOR_CHUNK_SIZE;
      const chunkPlaintext = plaintext.subarray(
        start,
        start + plainChunkLength(plaintext.length, index, VECTOR_CHUNK_SIZE),
      );
      const isLast = index === count - 1;
      const iv = vectorIv(vectorIndex, index);
      chunks.push({
        index,
        isLast,
        aadHex: bytesToHex(chunkAad(index, isLast)),
        ivHex: bytesToHex(iv),
        plaintextHex: bytesToHex(chunkPlaintext),
        encryptedHex: bytesToHex(await encryptChunk(fileKey, index, isLast, chunkPlaintext, iv)),
      });
    }
    const encrypted = concatBytes(chunks.map((chunk) => hexToBytes(chunk.encryptedHex)));
    vectors.push({
      name,
      chunkSize: VECTOR_CHUNK_SIZE,
      plaintextHex: bytesToHex(plaintext),
      chunks,
      encryptedHex: bytesToHex(encrypted),
      encryptedB64: bytesToBase64(encrypted),
    });
  }
  return {
    description:
      'coffer-v1 content encryption. Chunk i = iv || AES-256-GCM(fileKey, iv, aad_i, plaintext_i) (ciphertext then 16-byte tag). ' +
      'The real chunk size is 99614720; these vectors use a small chunkSize so the layout is visible.',
    format: 'coffer-v1',
    fileKeyHex: VECTOR_FILE_KEY_HEX,
    vectors,
  };
}

export interface PrivateKeyRecordVector {
  name: string;
  password: string;
  passwordUtf8Hex: string;
  saltHex: string;
  ivHex: string;
  iterations: number;
  /** The exact `encryptedPrivateKey` JSON string. */
  recordJson: string;
}

export interface KeyVectors {
  description: string;
  format: 'coffer-v1';
  userKeyPair: { pkcs8B64: string; publicKeyB64: string; fingerprint: string };
  fileKeyWrap: { fileKeyHex: string; encryptedFileKeyB64: string };
  privateKeyRecords: PrivateKeyRecordVector[];
}

/**
 * Builds the key vectors. With `existing` (the checked-in file), its RSA key pair and wrapped file
 * key are kept, so that adding or changing a record case does not churn the whole file.
 */
export async function buildKeyVectors(existing?: KeyVectors): Promise<KeyVectors> {
  const pair = existing === undefined ? await generateUserKeyPair() : undefined;
  const pkcs8Bytes =
    pair === undefined
      ? base64ToBytes(existing?.userKeyPair.pkcs8B64 ?? '')
      : await exportPrivateKeyPkcs8(pair.privateKey);
  const publicKeyB64 =
    pair === undefined
      ? (existing?.userKeyPair.publicKeyB64 ?? '')
      : await exportPublicKeyB64(pair.publicKey);
  const fileKey = await importFileKeyBytes(hexToBytes(VECTOR_FILE_KEY_HEX), true);
  const encryptedFileKeyB64 =
    pair === undefined
      ? (existing?.fileKeyWrap.encryptedFileKeyB64 ?? '')
      : bytesToBase64(
          new Uint8Array(await crypto.subtle.wrapKey('raw', fileKey, pair.publicKey, { name: 'RSA-OAEP' })),
        );

  const records: PrivateKeyRecordVector[] = [];
  const recordCases = [
    {
      name: `record with kdf (${PBKDF2_ITERATIONS} iterations, what Coffer writes)`,
      password: 'Correct-Horse-Battery-9!',
      iterations: PBKDF2_ITERATIONS,
      withKdf: true,
    },
    {
      name: 'spec-style record without kdf (100000 iterations)',
      password: 'Pässwörd-2024#',
      iterations: LEGACY_PBKDF2_ITERATIONS,
      withKdf: false,
    },
  ];
  for (const [i, { name, password, iterations, withKdf }] of recordCases.entries()) {
    const saltBytes = Uint8Array.from({ length: 16 }, (_, j) => 0x10 * i + j);
    const ivBytes = Uint8Array.from({ length: 12 }, (_, j) => 0xc0 + 0x10 * i + j);
    const full = await sealPrivateKeyRecord(pkcs8Bytes, password, { iterations, saltBytes, ivBytes });
    const recordJson = withKdf ? full : withoutKdf(full);
    records.push({
      name,
      password,
      passwordUtf8Hex: bytesToHex(utf8Bytes(password)),
      saltHex: bytesToHex(saltBytes),
      ivHex: bytesToHex(ivBytes),
      iterations,
      recordJson,
    });
  }

  return {
    description:
      'coffer-v1 keys. userKeyPair: RSA-OAEP 2048/65537/SHA-256. fileKeyWrap: RSA-OAEP-SHA256(publicKey, fileKey) ' +
      '(randomized; check by decrypting). privateKeyRecords: data = AES-256-GCM(PBKDF2-HMAC-SHA256(password, salt, iterations), iv, PKCS#8).',
    format: 'coffer-v1',
    userKeyPair: {
      pkcs8B64: bytesToBase64(pkcs8Bytes),
      publicKeyB64,
      fingerprint: await fingerprintSpki(base64ToBytes(publicKeyB64)),
    },
    fileKeyWrap: {
      fileKeyHex: VECTOR_FILE_KEY_HEX,
      encryptedFileKeyB64,
    },
    privateKeyRecords: records,
  };
}

function withoutKdf(recordJson: string): string {
  const { iv, salt, data } = JSON.parse(recordJson) as { iv: string; salt: string; data: string };
  return JSON.stringify({ iv, salt, data });
}

/** RFC 8032 section 7.1, test 1: an Ed25519 seed whose public key is published there. */
export const VECTOR_ED25519_SEED_HEX = '9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60';
export const VECTOR_ED25519_PUBLIC_HEX = 'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a';
const ED25519_PKCS8_PREFIX_HEX = '302e020100300506032b657004220420';
const ED25519_SPKI_PREFIX_HEX = '302a300506032b6570032100';

export interface SignedRecordVector {
  /** The record's JSON text exactly as Coffer writes it. */
  json: string;
  /** The exact bytes the signature covers. */
  messageHex: string;
  /** Ed25519 signature (deterministic) of `messageHex`. */
  signatureHex: string;
}

export interface SignatureVectors {
  description: string;
  format: 'coffer-v1';
  signingKey: { algorithm: 'Ed25519'; seedHex: string; pkcs8B64: string; signingPublicKeyB64: string };
  /** The RSA key of keys-v1.json: the owner's, and (to keep one key) also the share's recipient. */
  publicKeyB64: string;
  keyBinding: SignedRecordVector & { email: string; keyId: string; createdAt: string };
  fileManifest: SignedRecordVector & {
    ownerEncryptedFileKeyB64: string;
    fields: { ownerEmail: string; ownerKeyId: string; name: string; contentType: string; size: number };
    signedAt: string;
    manifestSha256Hex: string;
  };
  /** Version 2 (issue 31): the sealed metadata's hash in place of the name and type. */
  fileManifestV2: SignedRecordVector & {
    ownerEncryptedFileKeyB64: string;
    /** The file's `encryptedMetadata` (any bytes: the manifest signs only their SHA-256). */
    encryptedMetadataB64: string;
    fields: { ownerEmail: string; ownerKeyId: string; size: number };
    signedAt: string;
    manifestSha256Hex: string;
  };
  shareGrant: SignedRecordVector & {
    fields: { fileId: string; ownerEmail: string; recipientEmail: string; recipientKeyId: string };
    encryptedFileKeyB64: string;
    signedAt: string;
  };
  pinSet: SignedRecordVector & {
    plaintextJson: string;
    pinKeyHex: string;
    ivHex: string;
    aadHex: string;
    dataHex: string;
    /** RSA-OAEP(publicKey, pinKey): randomized, check by decrypting with keys-v1's private key. */
    wrappedKeyHex: string;
  };
}

export async function buildSignatureVectors(
  keys: KeyVectors,
  existing?: SignatureVectors,
): Promise<SignatureVectors> {
  const pkcs8Bytes = hexToBytes(ED25519_PKCS8_PREFIX_HEX + VECTOR_ED25519_SEED_HEX);
  const signingPrivateKey = await crypto.subtle.importKey('pkcs8', pkcs8Bytes, { name: 'Ed25519' }, false, [
    'sign',
  ]);
  const signingPublicKeyB64 = bytesToBase64(hexToBytes(ED25519_SPKI_PREFIX_HEX + VECTOR_ED25519_PUBLIC_HEX));
  const publicKeyB64 = keys.userKeyPair.publicKeyB64;
  const wrappedB64 = keys.fileKeyWrap.encryptedFileKeyB64;

  const email = 'alice@example.com';
  const keyId = 'key-1';
  const createdAt = '2026-01-02T03:04:05.678Z';
  const keyBindingJson = await createKeyBinding(
    { email: 'Alice@Example.com', keyId, publicKeyB64, signingPublicKeyB64 },
    signingPrivateKey,
    new Date(createdAt),
  );
  const binding = parseKeyBinding(keyBindingJson);

  const fields = {
    ownerEmail: email,
    ownerKeyId: keyId,
    name: 'Résumé 2026.pdf',
    contentType: 'application/pdf',
    size: 250_000_000,
  };
  const signedAt = '2026-01-02T03:05:00.000Z';
  const manifestJson = await signFileManifest(
    { ...fields, ownerEncryptedFileKeyB64: wrappedB64 },
    signingPrivateKey,
    new Date(signedAt),
  );
  const manifest = parseFileManifest(manifestJson);

  const v2Fields = { ownerEmail: email, ownerKeyId: keyId, size: 250_000_000 };
  // iv(12) || ciphertext || tag(16): fixed bytes stand for a sealed metadata blob.
  const encryptedMetadataB64 = bytesToBase64(Uint8Array.from({ length: 60 }, (_, i) => i));
  const v2SignedAt = '2026-01-02T03:05:30.000Z';
  const manifestV2Json = await signFileManifestV2(
    { ...v2Fields, ownerEncryptedFileKeyB64: wrappedB64, encryptedMetadataB64 },
    signingPrivateKey,
    new Date(v2SignedAt),
  );
  const manifestV2 = parseFileManifest(manifestV2Json);

  const grantFields = {
    fileId: 'file-1',
    ownerEmail: email,
    recipientEmail: 'bob@example.com',
    recipientKeyId: 'key-7',
  };
  const grantAt = '2026-01-02T03:06:00.000Z';
  const shareGrantJson = await signShareGrant(
    { ...grantFields, recipientPublicKeyB64: publicKeyB64, encryptedFileKeyB64: wrappedB64, manifestJson },
    signingPrivateKey,
    new Date(grantAt),
  );
  const grant = parseShareGrant(shareGrantJson);
  if (binding === null || manifest === null || manifestV2 === null || grant === null)
    throw new Error('vector records do not parse');

  const pinSet: PinSet = {
    version: 1,
    pins: [
      {
        email: 'bob@example.com',
        publicKeySha256Hex: bytesToHex(
          new Uint8Array(await crypto.subtle.digest('SHA-256', base64ToBytes(publicKeyB64))),
        ),
        signingKeySha256Hex: bytesToHex(
          new Uint8Array(await crypto.subtle.digest('SHA-256', base64ToBytes(signingPublicKeyB64))),
        ),
        state: 'verified',
        pinnedAt: '2026-01-02T03:07:00.000Z',
      },
    ],
  };
  const pinKeyHex = '202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f';
  const pinIvHex = 'a0a1a2a3a4a5a6a7a8a9aaab';
  let pinSetJson = await sealPinSetWith(
    pinSet,
    { publicKeyB64, signingPrivateKey },
    { pinKeyBytes: hexToBytes(pinKeyHex), ivBytes: hexToBytes(pinIvHex) },
  );
  // RSA-OAEP is randomized: keep the checked-in wrapped key (and so the signature) when it exists.
  if (existing?.pinSet.pinKeyHex === pinKeyHex) {
    const kept = JSON.parse(existing.pinSet.json) as { wrappedKeyB64: string };
    const fresh = JSON.parse(pinSetJson) as { ivB64: string; dataB64: string };
    const message = pinSetMessage(
      1,
      base64ToBytes(kept.wrappedKeyB64),
      base64ToBytes(fresh.ivB64),
      base64ToBytes(fresh.dataB64),
    );
    const signature = await signBytes(signingPrivateKey, message);
    pinSetJson = JSON.stringify({
      ...(JSON.parse(pinSetJson) as object),
      wrappedKeyB64: kept.wrappedKeyB64,
      signatureB64: bytesToBase64(signature),
    });
  }
  const blob = JSON.parse(pinSetJson) as {
    wrappedKeyB64: string;
    ivB64: string;
    dataB64: string;
    signatureB64: string;
  };
  const pinMessage = pinSetMessage(
    1,
    base64ToBytes(blob.wrappedKeyB64),
    base64ToBytes(blob.ivB64),
    base64ToBytes(blob.dataB64),
  );

  const record = (json: string, message: Uint8Array, signatureB64: string): SignedRecordVector => ({
    json,
    messageHex: bytesToHex(message),
    signatureHex: bytesToHex(base64ToBytes(signatureB64)),
  });
  return {
    description:
      'coffer-v1 signed records (Ed25519, deterministic). message = u8 len(label) || label || u32 count || (u32 len || field)*; ' +
      "signature = Ed25519(signingKey, message). The signing key is RFC 8032 test 1; the RSA key is keys-v1.json's.",
    format: 'coffer-v1',
    signingKey: {
      algorithm: 'Ed25519',
      seedHex: VECTOR_ED25519_SEED_HEX,
      pkcs8B64: bytesToBase64(pkcs8Bytes),
      signingPublicKeyB64,
    },
    publicKeyB64,
    keyBinding: {
      ...record(keyBindingJson, keyBindingMessage(binding), binding.signatureB64),
      email,
      keyId,
      createdAt,
    },
    fileManifest: {
      ...record(manifestJson, fileManifestMessage(manifest), manifest.signatureB64),
      ownerEncryptedFileKeyB64: wrappedB64,
      fields,
      signedAt,
      manifestSha256Hex: await fileManifestSha256Hex(manifest),
    },
    fileManifestV2: {
      ...record(manifestV2Json, fileManifestMessage(manifestV2), manifestV2.signatureB64),
      ownerEncryptedFileKeyB64: wrappedB64,
      encryptedMetadataB64,
      fields: v2Fields,
      signedAt: v2SignedAt,
      manifestSha256Hex: await fileManifestSha256Hex(manifestV2),
    },
    shareGrant: {
      ...record(shareGrantJson, shareGrantMessage(grant), grant.signatureB64),
      fields: grantFields,
      encryptedFileKeyB64: wrappedB64,
      signedAt: grantAt,
    },
    pinSet: {
      ...record(pinSetJson, pinMessage, blob.signatureB64),
      plaintextJson: new TextDecoder().decode(pinSetPlaintext(pinSet)),
      pinKeyHex,
      ivHex: pinIvHex,
      aadHex: bytesToHex(pinSetAad(1)),
      dataHex: bytesToHex(base64ToBytes(blob.dataB64)),
      wrappedKeyHex: bytesToHex(base64ToBytes(blob.wrappedKeyB64)),
    },
  };
}
