import { CHUNK_OVERHEAD_BYTES } from '@coffer/contracts';
import type { EncryptSliceOptions } from '../../crypto-worker/chunk-cipher';
import type { UploadContext } from './upload-context';
import type { UploadWork } from './upload-progress';

/**
 * The upload's read stage (docs/transfers.md, "Pipeline"): which bytes of the user's file chunk
 * `index` is, and what the cipher reports while it reads them. The bytes themselves are read where
 * they are sealed (the crypto worker reads the `File` slice itself, `storage/read-slice.ts`):
 * the page never reads file content.
 */
export interface ChunkSlice {
  readonly index: number;
  /** The slice `[start, end)` of the file. */
  readonly start: number;
  readonly end: number;
  readonly isLast: boolean;
  /** The resume hash scheme where the upload is journaled, and the read progress where asked. */
  readonly options: EncryptSliceOptions;
}

/** Chunk `index` of the file; `work` hears its bytes read while the cipher reads it. */
export function chunkSlice(
  context: Pick<UploadContext, 'file' | 'chunkSize' | 'chunkCount' | 'journal'>,
  index: number,
  work?: UploadWork,
): ChunkSlice {
  const start = index * context.chunkSize;
  const end = Math.min(context.file.size, start + context.chunkSize);
  return {
    index,
    start,
    end,
    isLast: index === context.chunkCount - 1,
    options: {
      ...(context.journal === undefined ? {} : { hashPlaintext: context.journal.hashing }),
      ...(work === undefined
        ? {}
        : {
            onRead: (bytesRead: number) => {
              work.read(index, bytesRead);
            },
          }),
    },
  };
}

/** Bytes of encrypted chunk `index` (part index + 1): its plaintext, IV and tag. */
export function partSize(context: Pick<UploadContext, 'file' | 'chunkSize'>, index: number): number {
  const start = index * context.chunkSize;
  return Math.min(context.file.size - start, context.chunkSize) + CHUNK_OVERHEAD_BYTES;
}
