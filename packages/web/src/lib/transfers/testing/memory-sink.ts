import type { SaveSink } from '../save/save-sink';

/** A sink that keeps what it is given, and how it ended. */
export class MemorySink implements SaveSink {
  readonly chunks: Uint8Array[] = [];
  state: 'open' | 'closed' | 'aborted' = 'open';
  abortReason: unknown = null;

  write(bytes: Uint8Array<ArrayBuffer>): Promise<void> {
    if (this.state !== 'open') return Promise.reject(new Error(`write after ${this.state}`));
    this.chunks.push(bytes.slice());
    return Promise.resolve();
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
