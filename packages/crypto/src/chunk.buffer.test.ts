import { describe, expect, it } from 'vitest';
import { ChunkBuffer } from './chunk.buffer.js';

describe('ChunkBuffer', () => {
  it('fills up to its size and reports what it took', () => {
    const buffer = new ChunkBuffer(5);
    expect(buffer.fill(new Uint8Array([1, 2, 3]))).toBe(3);
    expect(buffer.fill(new Uint8Array([4, 5, 6, 7]))).toBe(2);
    expect(buffer.isFull).toBe(true);
    expect(Array.from(buffer.view())).toEqual([1, 2, 3, 4, 5]);
    buffer.clear();
    expect(buffer.filled).toBe(0);
    expect(buffer.fill(new Uint8Array([9]))).toBe(1);
    expect(Array.from(buffer.view())).toEqual([9]);
  });

  it('keeps its content while growing past the initial capacity', () => {
    const size = 20 << 20;
    const buffer = new ChunkBuffer(size);
    const piece = new Uint8Array(3 << 20);
    let filled = 0;
    for (let i = 0; filled < size; i++) {
      piece.fill(i);
      filled += buffer.fill(piece);
    }
    const view = buffer.view();
    expect(view.length).toBe(size);
    expect(view[0]).toBe(0);
    expect(view[(3 << 20) * 5 + 1]).toBe(5);
    expect(view[size - 1]).toBe(6);
  });
});
