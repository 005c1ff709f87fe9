import type { ChunkPhase } from '../chunk-phase';
import type { SaveSink } from '../save/save-sink';

/**
 * The download's save stage (docs/transfers.md, "Pipeline"): a chunk's plaintext slices, as the
 * decrypt stage yields them, written in order to the save method's sink (`save/`: the service
 * worker's response stream, the picked file's writable, the page's Blob). The first slice exists
 * only once the whole chunk verified, so the chunk's "Decrypting chunk i of n..." ends there.
 * Nothing more is written once `signal` aborted.
 */
export async function saveChunk(
  plaintextSlices: AsyncIterable<Uint8Array<ArrayBuffer>>,
  sink: SaveSink,
  phase: ChunkPhase,
  signal: AbortSignal,
): Promise<void> {
  let first = true;
  for await (const plaintext of plaintextSlices) {
    if (first) phase.waitingFor(null);
    first = false;
    if (signal.aborted) return;
    await sink.write(plaintext);
  }
}
