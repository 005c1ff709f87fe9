import { bytesToHex } from '@coffer/crypto';
import type { ChunkCipher } from '../../crypto-worker';
import type { EncryptedSlice, SealedPart } from '../../crypto-worker/chunk-cipher';
import type { ChunkSlice } from './read';
import { throwIfAborted, type UploadContext } from './upload-context';
import type { UploadWork } from './upload-progress';

/**
 * The upload's seal stage (docs/transfers.md, "Pipeline"): a chunk's slice of the file encrypted
 * under the file key with the chunk's AAD (a fresh random IV), in the crypto worker. Once sealed,
 * the chunk counts as read, and a resumable upload records its plaintext hash (the journal compares
 * it with the recorded one on resume) before the part is sent.
 */
export type SealContext = Pick<UploadContext, 'fileKey' | 'file' | 'signal' | 'journal'>;

/**
 * Seals the slice where the part is then held and sent from: the crypto worker reads, seals and
 * stores it (`ChunkCipher.sealPart`, `crypto-worker/part-store.ts`), so the page never holds or
 * copies the ciphertext. The part is released if the upload ends meanwhile.
 */
export async function sealHeldPart(
  context: SealContext,
  sealPart: NonNullable<ChunkCipher['sealPart']>,
  slice: ChunkSlice,
  work: UploadWork | undefined,
): Promise<SealedPart> {
  throwIfAborted(context.signal);
  const { index, isLast, start, end, options } = slice;
  const part = await sealPart(context.fileKey, index, isLast, context.file, start, end, options);
  try {
    await chunkSealed(context, slice, part.plaintextHash, work);
    return part;
  } catch (error) {
    part.release();
    throw error;
  }
}

/**
 * Seals the slice and answers its bytes (the IV, the ciphertext with its tag): where the cipher
 * has no part store (on the page's thread), and for a resume's check, which wants only the hash.
 */
export async function sealBytes(
  context: SealContext & Pick<UploadContext, 'cipher'>,
  slice: ChunkSlice,
  work: UploadWork | undefined,
): Promise<EncryptedSlice> {
  throwIfAborted(context.signal);
  const { index, isLast, start, end, options } = slice;
  const sealed = await context.cipher.encryptSlice(
    context.fileKey,
    index,
    isLast,
    context.file,
    start,
    end,
    options,
  );
  await chunkSealed(context, slice, sealed.plaintextHash, work);
  return sealed;
}

/** A chunk was read and sealed: it counts as read, and a resumable upload records its hash. */
async function chunkSealed(
  context: SealContext,
  slice: ChunkSlice,
  plaintextHash: Uint8Array | undefined,
  work: UploadWork | undefined,
): Promise<void> {
  work?.read(slice.index, slice.end - slice.start);
  throwIfAborted(context.signal);
  if (context.journal !== undefined && plaintextHash !== undefined) {
    await context.journal.chunkHashed(slice.index, bytesToHex(plaintextHash));
  }
}
