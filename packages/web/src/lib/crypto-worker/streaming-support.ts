import { selfTestStreamingGcm } from '@coffer/crypto';

/**
 * Whether this thread computes chunks slice by slice (streaming AES-GCM, `@coffer/crypto`'s
 * `createChunkSealer` / `createChunkOpener`) or with one WebCrypto call per whole chunk.
 *
 * The crypto worker and the download service worker run the self-test once when they start
 * (`checkStreamingGcm()`); where it fails (an engine that refuses 16-byte GCM IVs, or computes
 * differently) they use the whole-chunk calls, say so in a debug log line, and answer
 * `streaming: false` to a status message (the browser benchmark reads it).
 */
let check: Promise<boolean> | null = null;

export function checkStreamingGcm(
  selfTest: () => Promise<boolean> = selfTestStreamingGcm,
  log: (message: string) => void = (message) => {
    console.debug(message);
  },
): Promise<boolean> {
  check ??= selfTest()
    .catch(() => false)
    .then((streaming) => {
      log(
        streaming
          ? 'coffer: streaming AES-GCM self-test passed: chunks are sealed and opened slice by slice'
          : 'coffer: streaming AES-GCM self-test FAILED: falling back to one WebCrypto call per whole chunk',
      );
      return streaming;
    });
  return check;
}

/** Forgets the result (tests). */
export function resetStreamingGcmCheck(): void {
  check = null;
}
