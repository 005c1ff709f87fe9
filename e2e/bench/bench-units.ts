import { CHUNK_OVERHEAD_BYTES, CHUNK_SIZE } from '@coffer/contracts';

export const GIB = 1024 ** 3;
/** The report's MB: 10^6 bytes. */
export const MB = 1e6;
/** Memory figures are in MiB. */
export const MIB = 1024 * 1024;
/** One encrypted chunk (plaintext, IV and tag), in MB: the report's unit of memory. */
export const CHUNK_MB = (CHUNK_SIZE + CHUNK_OVERHEAD_BYTES) / MB;

export const f0 = (n: number): string => n.toFixed(0);

/** Seconds since `start` (`process.hrtime.bigint()`). */
export function elapsed(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e9;
}
