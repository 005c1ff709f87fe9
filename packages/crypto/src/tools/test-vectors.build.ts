import { bytesToBase64 } from '../base64.codec.js';
import { bytesToHex, concatBytes, hexToBytes, utf8Bytes } from '../bytes.util.js';
import { chunkAad, encryptChunk } from '../chunk.cipher.js';
import { plainChunkLength, chunkCount } from '../content-size.math.js';
import { importFileKeyBytes } from '../file-key.wrap.js';
import { LEGACY_PBKDF2_ITERATIONS } from '../format.constants.js';
import { exportPrivateKeyPkcs8, exportPublicKeyB64, generateUserKeyPair } from '../key-pair.rsa.js';
import { fingerprintSpki } from '../key.fingerprint.js';
import { sealPrivateKeyRecord } from '../private-key.record.js';
import { base64ToBytes } from '../base64.codec.js';

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

export async function buildKeyVectors(): Promise<KeyVectors> {
  const pair = await generateUserKeyPair();
  const pkcs8Bytes = await exportPrivateKeyPkcs8(pair.privateKey);
  const publicKeyB64 = await exportPublicKeyB64(pair.publicKey);
  const fileKey = await importFileKeyBytes(hexToBytes(VECTOR_FILE_KEY_HEX), true);
  const encryptedFileKey = await crypto.subtle.wrapKey('raw', fileKey, pair.publicKey, { name: 'RSA-OAEP' });

  const records: PrivateKeyRecordVector[] = [];
  const recordCases = [
    {
      name: 'record with kdf (low iterations for speed)',
      password: 'Correct-Horse-Battery-9!',
      iterations: 1000,
    },
    {
      name: 'spec-style record without kdf (100000 iterations)',
      password: 'Pässwörd-2024#',
      iterations: LEGACY_PBKDF2_ITERATIONS,
    },
  ];
  for (const [i, { name, password, iterations }] of recordCases.entries()) {
    const saltBytes = Uint8Array.from({ length: 16 }, (_, j) => 0x10 * i + j);
    const ivBytes = Uint8Array.from({ length: 12 }, (_, j) => 0xc0 + 0x10 * i + j);
    const full = await sealPrivateKeyRecord(pkcs8Bytes, password, { iterations, saltBytes, ivBytes });
    const recordJson = iterations === LEGACY_PBKDF2_ITERATIONS ? withoutKdf(full) : full;
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
      encryptedFileKeyB64: bytesToBase64(new Uint8Array(encryptedFileKey)),
    },
    privateKeyRecords: records,
  };
}

function withoutKdf(recordJson: string): string {
  const { iv, salt, data } = JSON.parse(recordJson) as { iv: string; salt: string; data: string };
  return JSON.stringify({ iv, salt, data });
}
