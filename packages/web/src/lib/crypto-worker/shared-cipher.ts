import type { ChunkCipher } from './chunk-cipher';
import { createInProcessChunkCipher } from './in-process-chunk-cipher';
import { createWorkerChunkCipher } from './worker-chunk-cipher';

let shared: ChunkCipher | null = null;

/**
 * The page's one chunk cipher: the crypto worker where `Worker` exists (every supported browser),
 * else the in-process implementation (unit tests). The worker itself starts on the first chunk.
 */
export function getSharedChunkCipher(): ChunkCipher {
  shared ??= typeof Worker === 'function' ? createWorkerChunkCipher() : createInProcessChunkCipher();
  return shared;
}
