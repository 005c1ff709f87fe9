import { generateFileKey, generateUserKeyPair, sealMetadata, wrapFileKey } from '@coffer/crypto';
import { describe, expect, it } from 'vitest';
import { createSharedNames } from './shared-names';

const NODE = '5d0c1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b';

describe('shared names (a recipient opens sealed names with the file key)', () => {
  it('opens once per file and metadata, tells subscribers, and refuses metadata of another key', async () => {
    const me = await generateUserKeyPair();
    const fileKey = await generateFileKey();
    const wrapped = await wrapFileKey(fileKey, me.publicKey);
    const encryptedMetadata = await sealMetadata(fileKey, NODE, {
      name: 'a/b\u202E.txt',
      contentType: 'text/plain',
    });
    const names = createSharedNames();
    let heard = 0;
    names.subscribe(() => (heard += 1));
    const file = {
      nodeId: NODE,
      encryptedMetadata,
      name: 'encrypted',
      contentType: 'application/octet-stream',
    };
    expect(await names.open('f-1', file, wrapped, me.privateKey)).toEqual({
      name: 'a_b.txt',
      contentType: 'text/plain',
    });
    expect(names.get('f-1')?.name).toBe('a_b.txt');
    // Cached: a second open needs no unwrap (this key would fail).
    const stranger = await generateUserKeyPair();
    expect(await names.open('f-1', file, wrapped, stranger.privateKey)).toBeDefined();
    expect(heard).toBe(1);
    const otherKey = await generateFileKey();
    const foreign = await sealMetadata(otherKey, NODE, { name: 'x.txt' });
    await expect(
      names.open('f-2', { ...file, encryptedMetadata: foreign }, wrapped, me.privateKey),
    ).rejects.toThrow();
    expect(names.get('f-2')).toBeUndefined();
  });

  it('a file without sealed metadata keeps its clear name (nothing cached)', async () => {
    const names = createSharedNames();
    const me = await generateUserKeyPair();
    expect(
      await names.open('f-1', { name: 'old.txt', contentType: 'text/plain' }, 'AAAA', me.privateKey),
    ).toBeUndefined();
  });
});
