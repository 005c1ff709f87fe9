/**
 * The status text while two chunks overlap (spec section 8): the network text ('Encrypting and
 * uploading file', 'Downloading and decrypting file') while bytes move, else the text of the chunk
 * whose encryption or decryption the pipeline waits for only ('Encrypting chunk i of n...').
 */
export interface ChunkPhase {
  /** Bytes are moving over the network, or no longer. */
  bytesMoving(active: boolean): void;
  /** The pipeline waits for chunk `index`'s encryption or decryption; null: for none. */
  waitingFor(index: number | null): void;
}

export function createChunkPhase(
  status: { text(text: string): void },
  networkText: string,
  chunkText: (position: number) => string,
): ChunkPhase {
  let moving = false;
  let waitingIndex: number | null = null;
  const show = (): void => {
    if (moving) status.text(networkText);
    else if (waitingIndex !== null) status.text(chunkText(waitingIndex + 1));
  };
  return {
    bytesMoving(active) {
      moving = active;
      show();
    },
    waitingFor(index) {
      waitingIndex = index;
      show();
    },
  };
}
