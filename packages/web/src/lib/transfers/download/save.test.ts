import { describe, expect, it } from 'vitest';
import type { ChunkPhase } from '../chunk-phase';
import type { SaveSink } from '../save/save-sink';
import { saveChunk } from './save';

function recording(): { sink: SaveSink; phase: ChunkPhase; log: string[] } {
  const log: string[] = [];
  return {
    log,
    sink: {
      write: (bytes) => {
        log.push(`write ${bytes.join(',')}`);
        return Promise.resolve();
      },
      close: () => Promise.resolve(),
      abort: () => Promise.resolve(),
    },
    phase: {
      waitingFor: (index) => log.push(`waiting ${index}`),
      bytesMoving: () => undefined,
    },
  };
}

async function* slices(...values: number[][]): AsyncGenerator<Uint8Array<ArrayBuffer>> {
  for (const value of values) yield await Promise.resolve(new Uint8Array(value));
}

describe('save stage: saveChunk', () => {
  it('writes the slices in order; the chunk stops waiting once its first slice (after verification) exists', async () => {
    const { sink, phase, log } = recording();
    await saveChunk(slices([1, 2], [3]), sink, phase, new AbortController().signal);
    expect(log).toEqual(['waiting null', 'write 1,2', 'write 3']);
  });

  it('writes nothing more once the download was aborted', async () => {
    const { sink, phase, log } = recording();
    const controller = new AbortController();
    async function* abortingAfterFirst(): AsyncGenerator<Uint8Array<ArrayBuffer>> {
      yield await Promise.resolve(new Uint8Array([1]));
      controller.abort();
      yield new Uint8Array([2]);
    }
    await saveChunk(abortingAfterFirst(), sink, phase, controller.signal);
    expect(log).toEqual(['waiting null', 'write 1']);
  });

  it('writes nothing of a chunk that fails before its first slice (it did not verify)', async () => {
    const { sink, phase, log } = recording();
    async function* failing(): AsyncGenerator<Uint8Array<ArrayBuffer>> {
      await Promise.resolve();
      yield* [];
      throw new Error('IntegrityError');
    }
    await expect(saveChunk(failing(), sink, phase, new AbortController().signal)).rejects.toThrow(
      'IntegrityError',
    );
    expect(log).toEqual([]);
  });
});
