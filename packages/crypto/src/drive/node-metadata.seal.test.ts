import { describe, expect, it } from 'vitest';
import { base64ToBytes, bytesToBase64 } from '../base64.codec.js';
import { utf8Bytes } from '../bytes.util.js';
import { MetadataInvalidError } from '../crypto.errors.js';
import { generateFileKey } from '../file-key.wrap.js';
import { metadataAad } from './node-place.js';
import { openMetadata, sealMetadata } from './node-metadata.seal.js';

const FILE_1 = '00000001-0000-4000-8000-000000000000';
const FILE_2 = '00000002-0000-4000-8000-000000000000';

/** Seals any plaintext the way sealMetadata does, to test what openMetadata accepts. */
async function sealRaw(key: CryptoKey, nodeId: string, plaintext: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const ct = await crypto.subtle.encrypt(
    { name: 'AES-GCM', iv, additionalData: metadataAad(nodeId) },
    key,
    utf8Bytes(plaintext),
  );
  return bytesToBase64(new Uint8Array([...iv, ...new Uint8Array(ct)]));
}

describe('node metadata', () => {
  it('round-trips a file name with a content type, and a folder name alone', async () => {
    const key = await generateFileKey();
    const file = { name: 'Résumé 2026 🎉.pdf', contentType: 'application/pdf' };
    expect(await openMetadata(key, FILE_1, await sealMetadata(key, FILE_1, file))).toEqual(file);
    expect(await openMetadata(key, FILE_2, await sealMetadata(key, FILE_2, { name: 'Taxes' }))).toEqual({
      name: 'Taxes',
    });
  });

  it('uses a fresh IV each time', async () => {
    const key = await generateFileKey();
    const a = await sealMetadata(key, FILE_1, { name: 'a' });
    expect(await sealMetadata(key, FILE_1, { name: 'a' })).not.toBe(a);
  });

  it('metadata swapped between two files does not open (AAD names the node)', async () => {
    // Even when both files share a key (they never do), the node id in the AAD refuses the swap.
    const key = await generateFileKey();
    const ofFile1 = await sealMetadata(key, FILE_1, { name: 'hiv-test-results.pdf' });
    const ofFile2 = await sealMetadata(key, FILE_2, { name: 'holiday.jpg' });
    await expect(openMetadata(key, FILE_2, ofFile1)).rejects.toBeInstanceOf(MetadataInvalidError);
    await expect(openMetadata(key, FILE_1, ofFile2)).rejects.toBeInstanceOf(MetadataInvalidError);
    // With their own keys (the real case), another file's key fails too.
    await expect(openMetadata(await generateFileKey(), FILE_1, ofFile1)).rejects.toMatchObject({
      code: 'METADATA_INVALID',
    });
  });

  it('refuses altered, truncated and non-base64 metadata', async () => {
    const key = await generateFileKey();
    const sealed = base64ToBytes(await sealMetadata(key, FILE_1, { name: 'a.txt' }));
    const altered = new Uint8Array(sealed);
    altered[14] = (altered[14] ?? 0) ^ 0x80;
    for (const bad of [bytesToBase64(altered), bytesToBase64(sealed.subarray(0, 27)), '@@@@', '']) {
      await expect(openMetadata(key, FILE_1, bad)).rejects.toBeInstanceOf(MetadataInvalidError);
    }
  });

  it('opens strictly: exactly a name and an optional type, within their limits', async () => {
    const key = await generateFileKey();
    const refused = [
      '[]',
      '"a.txt"',
      'null',
      '{}',
      '{"name":""}',
      '{"name":1}',
      '{"name":"a","contentType":null}',
      '{"name":"a","contentType":7}',
      '{"name":"a","size":3}',
      '{"name":"a","__proto__":{"x":1}}',
      JSON.stringify({ name: 'a'.repeat(1025) }),
      JSON.stringify({ name: 'a', contentType: 't'.repeat(256) }),
      '{"name":"a"',
    ];
    for (const plaintext of refused) {
      await expect(
        openMetadata(key, FILE_1, await sealRaw(key, FILE_1, plaintext)),
        plaintext,
      ).rejects.toBeInstanceOf(MetadataInvalidError);
    }
    const longest = { name: 'é'.repeat(1024), contentType: 't'.repeat(255) };
    expect(await openMetadata(key, FILE_1, await sealRaw(key, FILE_1, JSON.stringify(longest)))).toEqual(
      longest,
    );
  });

  it('refuses invalid UTF-8 inside the ciphertext', async () => {
    const key = await generateFileKey();
    const iv = new Uint8Array(12);
    const bytes = new Uint8Array([0x7b, 0x22, 0x6e, 0x61, 0x6d, 0x65, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]);
    const ct = await crypto.subtle.encrypt(
      { name: 'AES-GCM', iv, additionalData: metadataAad(FILE_1) },
      key,
      bytes,
    );
    const sealed = bytesToBase64(new Uint8Array([...iv, ...new Uint8Array(ct)]));
    await expect(openMetadata(key, FILE_1, sealed)).rejects.toBeInstanceOf(MetadataInvalidError);
  });

  it('does not seal what it would not open', async () => {
    const key = await generateFileKey();
    for (const metadata of [
      { name: '' },
      { name: 'x'.repeat(1025) },
      { name: 'a', contentType: 'x'.repeat(256) },
    ]) {
      await expect(sealMetadata(key, FILE_1, metadata)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    }
    await expect(sealMetadata(key, 'not-a-uuid', { name: 'a' })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
  });
});
