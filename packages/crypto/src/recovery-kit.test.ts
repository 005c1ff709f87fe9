import { describe, expect, it } from 'vitest';
import { bytesToHex, hexToBytes } from './bytes.util.js';
import { InvalidArgumentError, RecoveryKitMismatchError, RecoveryWordsError } from './crypto.errors.js';
import {
  createRecoveryKit,
  deriveRecoveryWrapKey,
  openRecoveryWrap,
  recoveryKitId,
  recoveryWordsToSecret,
  sealRecoveryWrap,
  type RecoveryWrapContext,
} from './recovery-kit.js';

// BIP-39's own English test vector (trezor/python-mnemonic vectors.json) for 256-bit entropy 7f…7f.
const BIP39_ENTROPY_HEX = '7f'.repeat(32);
const BIP39_WORDS =
  'legal winner thank year wave sausage worth useful legal winner thank year wave sausage worth useful legal winner thank year wave sausage worth title';

const context: RecoveryWrapContext = { kitId: 'kit', keyId: 'key-1', purpose: 'private-key' };

describe('recovery kit words', () => {
  it('reads BIP-39’s known vector back to its entropy', () => {
    expect(bytesToHex(recoveryWordsToSecret(BIP39_WORDS))).toBe(BIP39_ENTROPY_HEX);
    expect(bytesToHex(recoveryWordsToSecret(`zoo ${'zoo '.repeat(22)}vote`))).toBe('ff'.repeat(32));
  });

  it('draws 24 words that read back to the secret; ignores case, numbering, commas and line breaks', async () => {
    const kit = await createRecoveryKit();
    expect(kit.words).toHaveLength(24);
    expect(kit.secretBytes).toHaveLength(32);
    expect(kit.kitId).toBe(await recoveryKitId(kit.secretBytes));
    expect(kit.kitId).toMatch(/^[0-9a-f]{32}$/);
    const typed = kit.words
      .map((word, i) => `${i + 1}. ${i % 2 === 0 ? word.toUpperCase() : word}`)
      .join(',\n ');
    expect(recoveryWordsToSecret(typed)).toEqual(kit.secretBytes);
    expect((await createRecoveryKit()).secretBytes).not.toEqual(kit.secretBytes);
  });

  it('refuses a wrong count, an unknown word and a failed checksum with RecoveryWordsError', () => {
    const words = BIP39_WORDS.split(' ');
    expect(() => recoveryWordsToSecret(words.slice(0, 23).join(' '))).toThrow(RecoveryWordsError);
    expect(() => recoveryWordsToSecret([...words.slice(0, 23), 'coffee', 'extra'].join(' '))).toThrow(
      /24 words/,
    );
    expect(() => recoveryWordsToSecret([...words.slice(0, 23), 'zzzz'].join(' '))).toThrow(
      /not in the recovery word list/,
    );
    // Two words swapped: every word is valid, the checksum is not.
    const swapped = [words[1], words[0], ...words.slice(2)].join(' ');
    expect(() => recoveryWordsToSecret(swapped)).toThrow(RecoveryWordsError);
  });

  it('kit id: a fixed function of the secret', async () => {
    const secret = hexToBytes(BIP39_ENTROPY_HEX);
    expect(await recoveryKitId(secret)).toBe(await recoveryKitId(secret.slice()));
    await expect(recoveryKitId(new Uint8Array(16))).rejects.toThrow(InvalidArgumentError);
  });
});

describe('recovery wraps', () => {
  const pkcs8 = new TextEncoder().encode('not really a key, but bytes to wrap');

  it('open with the same secret and context', async () => {
    const key = await deriveRecoveryWrapKey(hexToBytes(BIP39_ENTROPY_HEX));
    const wrap = await sealRecoveryWrap(pkcs8, key, context);
    expect(Object.keys(JSON.parse(wrap) as object)).toEqual(['v', 'kitId', 'iv', 'data']);
    expect(await openRecoveryWrap(wrap, key, context)).toEqual(pkcs8);
  });

  it('refuse another kit, another key id, another purpose, an altered wrap or a malformed one', async () => {
    const key = await deriveRecoveryWrapKey(hexToBytes(BIP39_ENTROPY_HEX));
    const otherKey = await deriveRecoveryWrapKey(hexToBytes('ff'.repeat(32)));
    const wrap = await sealRecoveryWrap(pkcs8, key, context);
    await expect(openRecoveryWrap(wrap, otherKey, context)).rejects.toThrow(RecoveryKitMismatchError);
    await expect(openRecoveryWrap(wrap, key, { ...context, kitId: 'newer' })).rejects.toThrow(
      /no longer valid/,
    );
    await expect(openRecoveryWrap(wrap, key, { ...context, keyId: 'key-2' })).rejects.toThrow(
      RecoveryKitMismatchError,
    );
    await expect(openRecoveryWrap(wrap, key, { ...context, purpose: 'signing-key/Ed25519' })).rejects.toThrow(
      RecoveryKitMismatchError,
    );
    const parsed = JSON.parse(wrap) as { data: string };
    // Another first character (one in 64 random wraps already starts with "A").
    const first = parsed.data.startsWith('A') ? 'B' : 'A';
    const altered = JSON.stringify({ ...parsed, data: `${first}${parsed.data.slice(1)}` });
    await expect(openRecoveryWrap(altered, key, context)).rejects.toThrow(RecoveryKitMismatchError);
    for (const bad of ['not json', '{"v":2}', 'null']) {
      await expect(openRecoveryWrap(bad, key, context)).rejects.toThrow(RecoveryKitMismatchError);
    }
  });
});
