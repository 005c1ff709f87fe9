import { InvalidArgumentError } from './crypto.errors.js';

const utf8Encoder = new TextEncoder();

/** UTF-8 bytes of a string, exactly as typed (no Unicode normalization). */
export function utf8Bytes(text: string): Uint8Array<ArrayBuffer> {
  return utf8Encoder.encode(text);
}

/** Lowercase hex of bytes. */
export function bytesToHex(bytes: Uint8Array): string {
  let hex = '';
  for (const byte of bytes) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

/** Bytes of a hex string (either case, even length). */
export function hexToBytes(hex: string): Uint8Array<ArrayBuffer> {
  if (hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) {
    throw new InvalidArgumentError('invalid hex string');
  }
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/** Concatenates byte arrays into one new array. */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array<ArrayBuffer> {
  let length = 0;
  for (const part of parts) length += part.length;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/**
 * A view WebCrypto accepts. WebCrypto rejects views of a SharedArrayBuffer, so those are copied;
 * ordinary views are passed through without copying.
 */
export function toBufferSource(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  return bytes.buffer instanceof ArrayBuffer ? (bytes as Uint8Array<ArrayBuffer>) : new Uint8Array(bytes);
}

/** Throws {@link InvalidArgumentError} unless `value` is a non-negative safe integer. */
export function assertNonNegativeInteger(value: number, name: string): void {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new InvalidArgumentError(`${name} must be a non-negative safe integer, got ${String(value)}`);
  }
}

/** Throws {@link InvalidArgumentError} unless `value` is a positive safe integer. */
export function assertPositiveInteger(value: number, name: string): void {
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new InvalidArgumentError(`${name} must be a positive safe integer, got ${String(value)}`);
  }
}

/** Throws {@link InvalidArgumentError} unless `value` is a Uint8Array. */
export function assertBytes(value: unknown, name: string): asserts value is Uint8Array {
  if (!(value instanceof Uint8Array)) throw new InvalidArgumentError(`${name} must be a Uint8Array`);
}
