import { InvalidArgumentError, InvalidKeyError } from './crypto.errors.js';

// A table-driven codec instead of btoa/atob: no binary strings, no Buffer, strict on input,
// identical in browsers, workers and Node.
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const ENCODE = Array.from(ALPHABET, (c) => c.charCodeAt(0));
const DECODE = new Int16Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) DECODE[ALPHABET.charCodeAt(i)] = i;
const PAD = 0x3d; // '='
// The encoder's output is ASCII, which UTF-8 decodes byte for byte.
const asciiDecoder = new TextDecoder();

/** Encodes bytes as standard base64 (RFC 4648 §4, with `=` padding). */
export function bytesToBase64(bytes: Uint8Array): string {
  const out = new Uint8Array(Math.ceil(bytes.length / 3) * 4);
  let o = 0;
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = ((bytes[i] ?? 0) << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    out[o++] = ENCODE[n >>> 18] ?? 0;
    out[o++] = ENCODE[(n >>> 12) & 63] ?? 0;
    out[o++] = ENCODE[(n >>> 6) & 63] ?? 0;
    out[o++] = ENCODE[n & 63] ?? 0;
  }
  const rest = bytes.length - i;
  if (rest > 0) {
    const n = ((bytes[i] ?? 0) << 16) | (rest === 2 ? (bytes[i + 1] ?? 0) << 8 : 0);
    out[o++] = ENCODE[n >>> 18] ?? 0;
    out[o++] = ENCODE[(n >>> 12) & 63] ?? 0;
    out[o++] = rest === 2 ? (ENCODE[(n >>> 6) & 63] ?? 0) : PAD;
    out[o] = PAD;
  }
  return asciiDecoder.decode(out);
}

/**
 * Decodes standard base64. Strict: the length must be a multiple of 4, padding only at the end,
 * no whitespace, no URL-safe alphabet. Throws {@link InvalidArgumentError} otherwise.
 */
export function base64ToBytes(base64: string): Uint8Array<ArrayBuffer> {
  if (base64.length % 4 !== 0) throw invalid('length is not a multiple of 4');
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  const out = new Uint8Array((base64.length / 4) * 3 - padding);
  let o = 0;
  for (let i = 0; i < base64.length; i += 4) {
    const last = i + 4 === base64.length;
    const a = sextet(base64, i);
    const b = sextet(base64, i + 1);
    const c = last && padding === 2 ? 0 : sextet(base64, i + 2);
    const d = last && padding >= 1 ? 0 : sextet(base64, i + 3);
    const n = (a << 18) | (b << 12) | (c << 6) | d;
    out[o++] = n >>> 16;
    if (o < out.length) out[o++] = (n >>> 8) & 255;
    if (o < out.length) out[o++] = n & 255;
    // Non-canonical encodings (bits set beyond the data) would let two strings decode to the same bytes.
    if (last && ((padding === 2 && (n & 0xffff) !== 0) || (padding === 1 && (n & 0xff) !== 0))) {
      throw invalid('non-zero padding bits');
    }
  }
  return out;
}

function sextet(text: string, index: number): number {
  const code = text.charCodeAt(index);
  const value = code < 128 ? (DECODE[code] ?? -1) : -1;
  if (value < 0) throw invalid(`unexpected character at offset ${index}`);
  return value;
}

function invalid(reason: string): InvalidArgumentError {
  return new InvalidArgumentError(`invalid base64: ${reason}`);
}

/**
 * The SPKI bytes of a public key given as base64 (the `publicKey` of a key record).
 * @throws {InvalidKeyError} "<what> is not valid base64".
 */
export function spkiBytesFromB64(publicKeyB64: string, what = 'public key'): Uint8Array<ArrayBuffer> {
  try {
    return base64ToBytes(publicKeyB64);
  } catch (cause) {
    throw new InvalidKeyError(`${what} is not valid base64`, { cause });
  }
}
