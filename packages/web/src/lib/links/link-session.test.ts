import { describe, expect, it } from 'vitest';
import { LinkDownloadSession } from './link-session';

describe('a link page download session', () => {
  it('keeps one session over different files, begins a new one to start a file again', () => {
    const session = new LinkDownloadSession();
    expect(session.headers()).toEqual({});
    expect(session.begin(['a'])).toBe(true);
    const first = session.headers()['x-link-download'];
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Another file, then the rest as a ZIP without the ones already started: the same session.
    expect(session.begin(['b'])).toBe(false);
    expect(session.headers()['x-link-download']).toBe(first);
    // The ZIP of all of them starts a and b again: a new session (one more download).
    expect(session.begin(['a', 'b', 'c'])).toBe(true);
    expect(session.headers()['x-link-download']).not.toBe(first);
  });
});
