import { encryptingChunkText, uploadMessages } from '@coffer/contracts';
import { createChunkPhase, type ChunkPhase } from '../chunk-phase';
import type { ProgressReporter } from '../progress';

/**
 * An upload's percentage (issue 15, point 12): every byte of the file is read for encryption once
 * and sent once, and each counts for half. So the percentage moves while a chunk is read in the
 * worker (seconds for 95 MiB on a slow machine) and while its part is sent, never by guessing.
 * `read(index, bytes)`: bytes of chunk `index` read so far; `sent(bytes)`: request body bytes sent
 * so far, of `sendTotal`.
 */
export interface UploadWork {
  read(index: number, bytes: number): void;
  sent(bytes: number): void;
}

export function createUploadWork(
  reporter: ProgressReporter,
  fileSize: number,
  sendTotal: number,
): UploadWork {
  const readPerChunk = new Map<number, number>();
  let read = 0;
  let sent = 0;
  const report = (): void => {
    const readShare = fileSize > 0 ? read / fileSize : 1;
    const sentShare = sendTotal > 0 ? Math.min(1, sent / sendTotal) : 0;
    reporter.fraction(readShare + sentShare, 2);
  };
  return {
    read(index, bytes) {
      const before = readPerChunk.get(index) ?? 0;
      if (bytes <= before) return;
      readPerChunk.set(index, bytes);
      read += bytes - before;
      report();
    },
    sent(bytes) {
      sent = bytes;
      report();
    },
  };
}

/** 'Encrypting and uploading file' while bytes go out, else 'Encrypting chunk i of n...'. */
export function createUploadPhase(reporter: ProgressReporter, chunkCount: number): ChunkPhase {
  const chunkText = (position: number): string => encryptingChunkText(position, chunkCount);
  return createChunkPhase(reporter, uploadMessages.encryptingAndUploading, chunkText);
}
