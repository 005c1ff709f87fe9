import { bytesToHex, concatBytes, hexToBytes } from '../bytes.util.js';
import { createChunkOpener } from './chunk.opener.js';
import { createChunkSealer } from './chunk.sealer.js';
import { gcmEncrypt } from './gcm-secrets.derive.js';

// The GCM specification's test case 16 (AES-256, 96-bit IV, AAD, 60-byte plaintext).
const KEY_HEX = 'feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308';
const IV_HEX = 'cafebabefacedbaddecaf888';
const AAD_HEX = 'feedfacedeadbeeffeedfacedeadbeefabaddad2';
const PLAIN_HEX =
  'd9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72' +
  '1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39';
const SEALED_HEX =
  '522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa' +
  '8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662' +
  '76fc6ece0f4e1768cddf8853bb2d551b';

/**
 * Checks, in this engine, that streaming AES-GCM gives what one-shot AES-GCM gives: the GCM
 * specification's test case 16 sealed in two slices, a 131-byte message in three slices against
 * this engine's own one-shot call, both opened again (verify, then decrypt), and a flipped tag bit
 * refused. A worker runs it once at start; where it returns false (an engine that refuses 16-byte
 * IVs, or computes differently), the caller seals and opens whole chunks with `sealChunk` and
 * `decryptChunk` instead, and says so in its debug log.
 */
export async function selfTestStreamingGcm(): Promise<boolean> {
  try {
    const key = await crypto.subtle.importKey('raw', hexToBytes(KEY_HEX), 'AES-GCM', false, [
      'encrypt',
      'decrypt',
    ]);
    const iv = hexToBytes(IV_HEX);
    const aad = hexToBytes(AAD_HEX);
    const plain = hexToBytes(PLAIN_HEX);
    const sealed = await sealInSlices(key, iv, aad, plain, [32, 28]);
    if (bytesToHex(sealed) !== SEALED_HEX) return false;

    const longer = new Uint8Array(131).map((_, i) => (i * 29 + 7) & 0xff);
    const oneShot = await gcmEncrypt(key, iv, longer, aad);
    const streamed = await sealInSlices(key, iv, aad, longer, [64, 48, 19]);
    if (bytesToHex(streamed) !== bytesToHex(oneShot)) return false;

    if (!(await opensTo(key, iv, aad, oneShot, [64, 48, 19], longer))) return false;
    const tampered = new Uint8Array(oneShot);
    tampered[tampered.length - 1] = (tampered[tampered.length - 1] ?? 0) ^ 1;
    const tamperedOpener = await createChunkOpener(key, iv, aad, longer.length, { immutableSource: true });
    return !(await tamperedOpener.verifyChunk(slicesOf(tampered, [64, 48, 19]), tampered.subarray(-16)));
  } catch {
    return false;
  }
}

async function sealInSlices(
  key: CryptoKey,
  iv: Uint8Array,
  aad: Uint8Array,
  plain: Uint8Array,
  lengths: number[],
): Promise<Uint8Array> {
  const sealer = await createChunkSealer(key, iv, aad, plain.length);
  const outputs: Uint8Array[] = [];
  for (const slice of slicesOf(plain, lengths)) outputs.push(await sealer.sealSlice(slice));
  return concatBytes(outputs);
}

async function opensTo(
  key: CryptoKey,
  iv: Uint8Array,
  aad: Uint8Array,
  sealed: Uint8Array,
  lengths: number[],
  plain: Uint8Array,
): Promise<boolean> {
  const cipherLength = sealed.length - 16;
  const opener = await createChunkOpener(key, iv, aad, cipherLength);
  const slices = slicesOf(sealed.subarray(0, cipherLength), lengths);
  if (!(await opener.verifyChunk(slices, sealed.subarray(cipherLength)))) return false;
  const outputs: Uint8Array[] = [];
  for (const slice of slices) outputs.push(await opener.decryptSlice(slice));
  return bytesToHex(concatBytes(outputs)) === bytesToHex(plain);
}

function slicesOf(bytes: Uint8Array, lengths: number[]): Uint8Array[] {
  const slices: Uint8Array[] = [];
  let offset = 0;
  for (const length of lengths) {
    slices.push(bytes.subarray(offset, offset + length));
    offset += length;
  }
  return slices;
}
