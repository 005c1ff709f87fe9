import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import type { ScryptOptions } from 'node:crypto';

/**
 * Password hashes of the embedded provider's local accounts: scrypt (memory-hard) with a random salt per
 * account, in PHC string form `$scrypt$ln=15,r=8,p=3$<salt b64>$<hash b64>`, so every hash carries its
 * own parameters and old hashes still verify after the cost is raised.
 */
export interface PasswordHashParams {
  /** log2 of scrypt's N (CPU/memory cost). */
  logN: number;
  /** Block size. */
  r: number;
  /** Parallelisation. */
  p: number;
}

/**
 * OWASP's scrypt equivalent of N=2^17, r=8, p=1 (N=2^15, r=8, p=3): the same work with 32 MiB of memory
 * per hash instead of 128 MiB, so a burst of sign-ins cannot exhaust a small server.
 */
export const DEFAULT_PASSWORD_HASH_PARAMS: PasswordHashParams = { logN: 15, r: 8, p: 3 };

/** Longer inputs are refused before hashing: a megabyte "password" must not cost a megabyte of scrypt. */
export const MAX_PASSWORD_LENGTH = 1024;

const SALT_BYTES = 16;
const KEY_BYTES = 32;
const PHC =
  /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9+/]+={0,2})\$([A-Za-z0-9+/]+={0,2})$/;

function derive(password: string, salt: Uint8Array, params: PasswordHashParams): Promise<Buffer> {
  const options: ScryptOptions = {
    N: 2 ** params.logN,
    r: params.r,
    p: params.p,
    // scrypt needs 128·N·r bytes; Node's default cap (32 MiB) is exactly that at ln=15, r=8, so leave room.
    maxmem: 256 * 2 ** params.logN * params.r + 1024 * 1024,
  };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, KEY_BYTES, options, (error, key) => {
      if (error) reject(error);
      else resolve(key);
    });
  });
}

interface ParsedHash {
  params: PasswordHashParams;
  salt: Buffer;
  key: Buffer;
}

function parse(hash: string): ParsedHash | null {
  const match = PHC.exec(hash);
  if (match === null) return null;
  const [, logN, r, p, salt, key] = match;
  if (logN === undefined || r === undefined || p === undefined || salt === undefined || key === undefined) {
    return null;
  }
  const params = { logN: Number(logN), r: Number(r), p: Number(p) };
  if (params.logN < 1 || params.logN > 22 || params.r < 1 || params.p < 1 || params.p > 16) return null;
  return { params, salt: Buffer.from(salt, 'base64'), key: Buffer.from(key, 'base64') };
}

/** Hashes `password` with a fresh random salt. */
export async function hashPassword(
  password: string,
  params: PasswordHashParams = DEFAULT_PASSWORD_HASH_PARAMS,
): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, params);
  return `$scrypt$ln=${params.logN},r=${params.r},p=${params.p}$${salt.toString('base64')}$${key.toString('base64')}`;
}

/** Whether `password` matches `hash`, compared in constant time. A hash in an unknown form never matches. */
export async function verifyPassword(password: string, hash: string): Promise<boolean> {
  const parsed = parse(hash);
  if (parsed === null || password.length > MAX_PASSWORD_LENGTH) return false;
  const key = await derive(password, parsed.salt, parsed.params);
  return key.length === parsed.key.length && timingSafeEqual(key, parsed.key);
}

/** Whether `hash` was made with other parameters than `params` (rehash it after the next good sign-in). */
export function needsRehash(
  hash: string,
  params: PasswordHashParams = DEFAULT_PASSWORD_HASH_PARAMS,
): boolean {
  const current = parse(hash)?.params;
  return current?.logN !== params.logN || current.r !== params.r || current.p !== params.p;
}

/**
 * Spends the same time as checking a real password, for sign-ins with an unknown email, so the answer's
 * timing does not tell whether an account exists.
 */
export function createDecoyVerifier(params: PasswordHashParams): (password: string) => Promise<void> {
  let decoy: Promise<string> | null = null;
  return async (password) => {
    decoy ??= hashPassword(randomBytes(16).toString('base64'), params);
    await verifyPassword(password, await decoy);
  };
}
