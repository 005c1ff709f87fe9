import type * as HashWasmModule from 'hash-wasm';
import { toBufferSource, utf8Bytes } from './bytes.util.js';
import { InvalidArgumentError, InvalidKeyRecordError, KdfDowngradeError } from './crypto.errors.js';

/**
 * Argon2id parameters of a key record's `kdf` member, in this member order:
 * `{"name":"Argon2id","version":19,"memoryKiB":65536,"passes":3,"parallelism":1}`.
 */
export interface Argon2idParams {
  name: 'Argon2id';
  /** Argon2 version 1.3 (0x13); the only one readers accept. */
  version: 19;
  memoryKiB: number;
  passes: number;
  parallelism: number;
}

/**
 * What Coffer writes: 64 MiB, 3 passes, one lane (RFC 9106's second recommended option, one lane).
 * Measured here (docs/benchmarks.md): ~0.3-0.6 s per unlock in Node 20, ~0.8 s in headless Chromium
 * under load, 2.4-4.3 s with the renderer throttled 4-6x as a phone-class stand-in; once per unlock.
 * One lane, because WebAssembly in a browser runs the lanes one after another anyway.
 */
export const ARGON2ID_PARAMS: Readonly<Argon2idParams> = Object.freeze({
  name: 'Argon2id',
  version: 19,
  memoryKiB: 65_536,
  passes: 3,
  parallelism: 1,
});

/**
 * The weakest parameters a reader accepts: today's. The record comes from the server, which could
 * otherwise lower them to make a guessed password cheaper to test against a record it serves.
 */
export const MIN_ARGON2ID: Readonly<Pick<Argon2idParams, 'memoryKiB' | 'passes'>> = Object.freeze({
  memoryKiB: 65_536,
  passes: 3,
});

/**
 * Bounds on what a record may ask for, so a tampered record cannot make the browser allocate
 * gigabytes or run for minutes before failing.
 */
export const MAX_ARGON2ID: Readonly<Pick<Argon2idParams, 'memoryKiB' | 'passes' | 'parallelism'>> =
  Object.freeze({ memoryKiB: 1_048_576, passes: 16, parallelism: 8 });

/** Reads a `kdf` member that names Argon2id: bad shapes are invalid records, weak ones downgrades. */
export function parseArgon2idParams(kdf: Record<string, unknown>): Argon2idParams {
  const { version, memoryKiB, passes, parallelism } = kdf;
  for (const [name, value] of Object.entries({ version, memoryKiB, passes, parallelism })) {
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
      throw new InvalidKeyRecordError(`kdf.${name} must be a positive integer`);
    }
  }
  const params = kdf as unknown as Omit<Argon2idParams, 'version'> & { version: number };
  if (params.version !== 19) throw new KdfDowngradeError('kdf.version must be 19 (Argon2 1.3)');
  if (params.memoryKiB < MIN_ARGON2ID.memoryKiB || params.passes < MIN_ARGON2ID.passes) {
    throw new KdfDowngradeError(
      `Argon2id below ${MIN_ARGON2ID.memoryKiB} KiB / ${MIN_ARGON2ID.passes} passes is refused`,
    );
  }
  if (
    params.memoryKiB > MAX_ARGON2ID.memoryKiB ||
    params.passes > MAX_ARGON2ID.passes ||
    params.parallelism > MAX_ARGON2ID.parallelism
  ) {
    throw new InvalidKeyRecordError('kdf asks for more Argon2id work than any Coffer record does');
  }
  return {
    name: 'Argon2id',
    version: 19,
    memoryKiB: params.memoryKiB,
    passes: params.passes,
    parallelism: params.parallelism,
  };
}

/**
 * Argon2id(password UTF-8, salt) → 32 bytes, imported as a non-extractable AES-256-GCM wrap key.
 * The derived bytes pass through JavaScript (hash-wasm returns them) and are zeroed at once.
 */
export async function deriveArgon2idWrapKey(
  password: string,
  saltBytes: Uint8Array,
  params: Argon2idParams,
): Promise<CryptoKey> {
  const keyBytes = await argon2idBytes(password, saltBytes, params);
  const rawBytes = toBufferSource(keyBytes);
  try {
    return await crypto.subtle.importKey('raw', rawBytes, { name: 'AES-GCM' }, false, [
      'encrypt',
      'decrypt',
      'wrapKey',
      'unwrapKey',
    ]);
  } finally {
    keyBytes.fill(0);
    rawBytes.fill(0);
  }
}

/**
 * Argon2id(password UTF-8, salt) → 32 raw bytes, for a caller that feeds them to another KDF (a
 * link's password part, docs/encryption.md section 18). The caller zeroes them once used.
 */
export async function argon2idBytes(
  password: string,
  saltBytes: Uint8Array,
  params: Argon2idParams,
): Promise<Uint8Array> {
  if (saltBytes.length < 8) throw new InvalidArgumentError('Argon2id salt must be at least 8 bytes');
  const { argon2id } = await loadHashWasm();
  return argon2id({
    password: utf8Bytes(password),
    salt: saltBytes,
    parallelism: params.parallelism,
    iterations: params.passes,
    memorySize: params.memoryKiB,
    hashLength: 32,
    outputType: 'binary',
  });
}

type HashWasm = typeof HashWasmModule;

let hashWasm: Promise<HashWasm> | undefined;

/**
 * hash-wasm (its WebAssembly inlined as base64) is loaded on the first derivation, not with the
 * package: the web app's signed-out first page imports this package and must stay light.
 */
function loadHashWasm(): Promise<HashWasm> {
  hashWasm ??= import('hash-wasm');
  return hashWasm;
}
