export {
  CryptoWorkerError,
  type ChunkCipher,
  type ChunkHashing,
  type ChunkHashScheme,
  type EncryptedSlice,
} from './chunk-cipher';
export { createInProcessChunkCipher } from './in-process-chunk-cipher';
export { getSharedChunkCipher } from './shared-cipher';
export { createWorkerChunkCipher, startCryptoWorker, type CryptoWorkerLike } from './worker-chunk-cipher';
