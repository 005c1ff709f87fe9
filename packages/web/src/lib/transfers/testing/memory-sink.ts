import type { SaveSink } from '../save/save-sink';

/** A sink that keeps what it is given, and how it ended. */
export class MemorySink implements SaveSink {
  readonly chunks: Uint8Array[] = [];
  state: 'open' | 'closed' | 'aborted' = 'open';
  abortReason: unknown = null;

  async write(chunk: Blob): Promise<void> {
    if (this.state !== 'open') throw new Error(`write after ${this.state}`);
    this.chunks.push(new Uint8Array(await chunk.arrayBuffer()));
  }

  close(): Promise<void> {
    this.state = 'closed';
    return Promise.resolve();
  }

  abort(reason: unknown): Promise<void> {
    this.state = 'aborted';
    this.abortReason = reason;
    return Promise.resolve();
  }
}
