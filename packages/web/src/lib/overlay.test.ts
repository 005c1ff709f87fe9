import { afterEach, describe, expect, it } from 'vitest';
import { overlay } from './overlay';

describe('overlay', () => {
  afterEach(() => {
    overlay.reset();
  });

  it('shows while at least one hold is open', () => {
    const a = overlay.show();
    const b = overlay.show('Decrypting…');
    expect(overlay.getState()).toEqual({ visible: true, message: 'Decrypting…' });
    b();
    expect(overlay.getState()).toEqual({ visible: true, message: undefined });
    a();
    a();
    expect(overlay.getState().visible).toBe(false);
  });

  it('holds during async work and notifies subscribers', async () => {
    const seen: boolean[] = [];
    const unsubscribe = overlay.subscribe(() => seen.push(overlay.getState().visible));
    await expect(overlay.during(() => Promise.reject(new Error('x')))).rejects.toThrow('x');
    unsubscribe();
    expect(seen).toEqual([true, false]);
  });
});
