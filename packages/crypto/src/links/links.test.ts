import { describe, expect, it } from 'vitest';
import { bytesToBase64, base64ToBytes } from '../base64.codec.js';
import {
  InvalidArgumentError,
  KdfDowngradeError,
  LinkFragmentError,
  LinkKeyUnwrapError,
  RequestKeyMismatchError,
} from '../crypto.errors.js';
import { generateFileKey, wrapFileKey } from '../file-key.wrap.js';
import { ARGON2ID_PARAMS } from '../kdf.argon2.js';
import { exportPublicKeyB64, generateUserKeyPair } from '../key-pair.rsa.js';
import { exportSigningPublicKeyB64, generateSigningKeyPair } from '../signing-key.pair.js';
import {
  assertRequestOwnerKey,
  createLinkId,
  createLinkSecret,
  deriveLinkKeys,
  encodeLinkFragment,
  encodeRequestFragment,
  isLinkId,
  linkAuthKeyHashHex,
  linkSigningKeyMatches,
  linkSigningKeyPin,
  openLinkLabel,
  openLinkMetadata,
  openRequestMessage,
  ownerKeySha256Hex,
  parseLinkFragment,
  parseLinkRecord,
  parseRequestFragment,
  sealLinkLabel,
  sealLinkMetadata,
  resignLinkRecord,
  sealRequestMessage,
  signLinkRecord,
  unwrapLinkFileKey,
  verifyLinkRecord,
  wrapFileKeyForLink,
  type LinkRecordFields,
} from './index.js';

const FILE_A = 'f0000000-0000-4000-8000-00000000000a';
const FILE_B = 'f0000000-0000-4000-8000-00000000000b';
const salt = new Uint8Array(16).fill(7);
const withPassword = (password: string) => ({ password, saltBytes: salt, kdf: { ...ARGON2ID_PARAMS } });

describe('link fragments', () => {
  it('round-trip a share link secret and a request secret with its owner key hash', () => {
    const secret = createLinkSecret();
    const fragment = encodeLinkFragment(secret);
    expect(fragment).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(parseLinkFragment(`#${fragment}`)).toEqual({
      secretBytes: secret,
      ownerSigningKeySha256Hex: null,
    });
    const pin = 'ef'.repeat(32);
    const pinned = encodeLinkFragment(secret, pin);
    expect(pinned).toBe(`${fragment}.${pin}`);
    expect(parseLinkFragment(`#${pinned}`)).toEqual({ secretBytes: secret, ownerSigningKeySha256Hex: pin });
    const hash = 'ab'.repeat(32);
    expect(parseRequestFragment(encodeRequestFragment(secret, hash))).toEqual({
      secretBytes: secret,
      ownerKeySha256Hex: hash,
    });
  });

  it('refuses a tampered or malformed fragment with a typed error', () => {
    const fragment = encodeLinkFragment(createLinkSecret());
    // The last of 43 characters carries 2 spare bits: 'B' sets one, so it is not canonical.
    const nonCanonical = `${fragment.slice(0, -1)}${fragment.endsWith('A') ? 'B' : 'A'}`;
    const bad = [fragment.slice(0, -1), `${fragment}A`, `+${fragment.slice(1)}`, `${fragment}=`, ''];
    if (fragment.endsWith('A')) bad.push(nonCanonical);
    for (const text of bad) expect(() => parseLinkFragment(text), text).toThrow(LinkFragmentError);
    const hash = 'cd'.repeat(32);
    for (const text of [
      `${fragment}.${hash.toUpperCase()}`,
      `${fragment}.${hash}.x`,
      `${fragment}.${hash.slice(2)}`,
      `${fragment}.`,
      `.${hash}`,
    ]) {
      expect(() => parseLinkFragment(text), text).toThrow(LinkFragmentError);
    }
    expect(() => encodeLinkFragment(createLinkSecret(), hash.toUpperCase())).toThrow(LinkFragmentError);
    for (const text of [
      fragment,
      `${fragment}.${hash.toUpperCase()}`,
      `${fragment}.${hash}.x`,
      `${fragment}.${hash.slice(2)}`,
    ]) {
      expect(() => parseRequestFragment(text), text).toThrow(LinkFragmentError);
    }
  });

  it('makes 22-character canonical link ids', () => {
    const id = createLinkId();
    expect(isLinkId(id)).toBe(true);
    // 22 characters carry 132 bits: a last character with a spare bit set is not canonical.
    expect(isLinkId(`${id.slice(0, 21)}B`)).toBe(false);
    expect(isLinkId(`${id.slice(0, 21)}=`)).toBe(false);
    expect(isLinkId('x'.repeat(21))).toBe(false);
  });
});

describe('link keys', () => {
  it('derive K and A from the secret, and from the secret and password', async () => {
    const secret = createLinkSecret();
    const plain = await deriveLinkKeys(secret);
    const again = await deriveLinkKeys(secret);
    expect(plain.authKeyBytes).toEqual(again.authKeyBytes);
    expect(plain.wrapKey.extractable).toBe(false);
    const pw = await deriveLinkKeys(secret, withPassword('hunter2'));
    const other = await deriveLinkKeys(secret, withPassword('hunter3'));
    expect(pw.authKeyBytes).not.toEqual(plain.authKeyBytes);
    expect(pw.authKeyBytes).not.toEqual(other.authKeyBytes);
    expect(await linkAuthKeyHashHex(pw.authKeyBytes)).toMatch(/^[0-9a-f]{64}$/);
  });

  it("bind the owner's signing key pin into K and A: another pin derives other keys", async () => {
    const secret = createLinkSecret();
    const unpinned = await deriveLinkKeys(secret);
    const pinned = await deriveLinkKeys(secret, undefined, 'ab'.repeat(32));
    const otherPin = await deriveLinkKeys(secret, undefined, 'ac'.repeat(32));
    expect(pinned.authKeyBytes).not.toEqual(unpinned.authKeyBytes);
    expect(pinned.authKeyBytes).not.toEqual(otherPin.authKeyBytes);
    expect((await deriveLinkKeys(secret, undefined, 'ab'.repeat(32))).authKeyBytes).toEqual(
      pinned.authKeyBytes,
    );
    const linkId = createLinkId();
    const sealed = await sealLinkMetadata(pinned.wrapKey, { linkId, fileId: FILE_A }, { name: 'a.txt' });
    await expect(openLinkMetadata(otherPin.wrapKey, { linkId, fileId: FILE_A }, sealed)).rejects.toThrow(
      LinkKeyUnwrapError,
    );
    await expect(deriveLinkKeys(secret, undefined, 'AB'.repeat(32))).rejects.toThrow(InvalidArgumentError);
  });

  it('refuse a weakened password KDF before deriving anything', async () => {
    await expect(
      deriveLinkKeys(createLinkSecret(), {
        password: 'x',
        saltBytes: salt,
        kdf: { ...ARGON2ID_PARAMS, memoryKiB: 1024 },
      }),
    ).rejects.toThrow(KdfDowngradeError);
  });
});

describe('file keys, metadata and texts under a link', () => {
  it('open only with the same secret and password, for the same link and file', async () => {
    const linkId = createLinkId();
    const secret = createLinkSecret();
    const { wrapKey } = await deriveLinkKeys(secret, withPassword('pw'));
    const rsa = await generateUserKeyPair();
    const encryptedFileKeyB64 = await wrapFileKey(await generateFileKey(), rsa.publicKey);
    const wrapped = await wrapFileKeyForLink(
      { encryptedFileKeyB64, rsaPrivateKey: rsa.privateKey },
      wrapKey,
      { linkId, fileId: FILE_A },
    );
    const fileKey = await unwrapLinkFileKey(wrapped, wrapKey, { linkId, fileId: FILE_A });
    expect(fileKey.extractable).toBe(false);

    const wrongPassword = (await deriveLinkKeys(secret, withPassword('pw2'))).wrapKey;
    await expect(unwrapLinkFileKey(wrapped, wrongPassword, { linkId, fileId: FILE_A })).rejects.toThrow(
      LinkKeyUnwrapError,
    );
    await expect(unwrapLinkFileKey(wrapped, wrapKey, { linkId, fileId: FILE_B })).rejects.toThrow(
      LinkKeyUnwrapError,
    );
    await expect(
      unwrapLinkFileKey(wrapped, wrapKey, { linkId: createLinkId(), fileId: FILE_A }),
    ).rejects.toThrow(LinkKeyUnwrapError);
    const flipped = base64ToBytes(wrapped);
    flipped[20] = (flipped[20] ?? 0) ^ 1;
    await expect(
      unwrapLinkFileKey(bytesToBase64(flipped), wrapKey, { linkId, fileId: FILE_A }),
    ).rejects.toThrow(LinkKeyUnwrapError);

    const meta = await sealLinkMetadata(
      wrapKey,
      { linkId, fileId: FILE_A },
      { name: 'a.pdf', contentType: 'application/pdf' },
    );
    expect(await openLinkMetadata(wrapKey, { linkId, fileId: FILE_A }, meta)).toEqual({
      name: 'a.pdf',
      contentType: 'application/pdf',
    });
    await expect(openLinkMetadata(wrapKey, { linkId, fileId: FILE_B }, meta)).rejects.toThrow(
      LinkKeyUnwrapError,
    );

    const label = await sealLinkLabel(wrapKey, linkId, 'for the accountant');
    expect(await openLinkLabel(wrapKey, linkId, label)).toBe('for the accountant');
    const message = await sealRequestMessage(wrapKey, linkId, 'send me the 2026 receipts');
    expect(await openRequestMessage(wrapKey, linkId, message)).toBe('send me the 2026 receipts');
    await expect(openRequestMessage(wrapKey, createLinkId(), message)).rejects.toThrow(LinkKeyUnwrapError);
  });
});

describe('link record', () => {
  it('is valid as signed, and names what a server changes', async () => {
    const signing = await generateSigningKeyPair();
    const signingPublicKeyB64 = await exportSigningPublicKeyB64(signing.publicKey);
    const fields: LinkRecordFields = {
      linkId: createLinkId(),
      ownerEmail: 'Alice@Example.com',
      items: [
        { fileId: FILE_A, wrappedKeyB64: bytesToBase64(new Uint8Array(60).fill(1)) },
        { fileId: FILE_B, wrappedKeyB64: bytesToBase64(new Uint8Array(60).fill(2)) },
      ],
      expiresAt: '2027-01-01T00:00:00.000Z',
      maxDownloads: 3,
    };
    const json = await signLinkRecord(fields, signing.privateKey);
    expect(await verifyLinkRecord(json, fields, signingPublicKeyB64)).toEqual({ status: 'valid' });
    // A file deleted since: fewer items still verify.
    expect(
      await verifyLinkRecord(json, { ...fields, items: fields.items.slice(1) }, signingPublicKeyB64),
    ).toEqual({ status: 'valid' });
    // Another file served under the link, more downloads, a later expiry, another link.
    const swapped = {
      ...fields,
      items: [{ fileId: FILE_A, wrappedKeyB64: bytesToBase64(new Uint8Array(60).fill(9)) }],
    };
    expect(await verifyLinkRecord(json, swapped, signingPublicKeyB64)).toEqual({
      status: 'mismatch',
      fields: ['items'],
    });
    expect(
      await verifyLinkRecord(
        json,
        { ...fields, maxDownloads: null, expiresAt: null, linkId: createLinkId() },
        signingPublicKeyB64,
      ),
    ).toEqual({ status: 'mismatch', fields: ['linkId', 'expiresAt', 'maxDownloads'] });
    expect(await verifyLinkRecord(undefined, fields, signingPublicKeyB64)).toEqual({ status: 'unsigned' });
    const altered = json.replace('"maxDownloads":3', '"maxDownloads":4');
    expect(
      (await verifyLinkRecord(altered, { ...fields, maxDownloads: 4 }, signingPublicKeyB64)).status,
    ).toBe('invalid-signature');
  });
});

describe('link record, signed again', () => {
  it('keeps the old items with a new expiry and limit, and refuses a record I did not sign', async () => {
    const signing = await generateSigningKeyPair();
    const signingPublicKeyB64 = await exportSigningPublicKeyB64(signing.publicKey);
    const fields: LinkRecordFields = {
      linkId: createLinkId(),
      ownerEmail: 'alice@example.com',
      items: [{ fileId: FILE_A, wrappedKeyB64: bytesToBase64(new Uint8Array(60).fill(1)) }],
      expiresAt: null,
      maxDownloads: null,
    };
    const old = await signLinkRecord(fields, signing.privateKey);
    const changes = { linkId: fields.linkId, expiresAt: '2027-02-01T00:00:00.000Z', maxDownloads: 2 };
    const json = await resignLinkRecord(old, changes, signingPublicKeyB64, signing.privateKey);
    expect(await verifyLinkRecord(json, { ...fields, ...changes }, signingPublicKeyB64)).toEqual({
      status: 'valid',
    });
    expect(parseLinkRecord(json)?.items).toBe(parseLinkRecord(old)?.items);
    // The old settings no longer verify against the new record.
    expect((await verifyLinkRecord(json, fields, signingPublicKeyB64)).status).toBe('mismatch');

    // A record signed by another key (a server's own), or of another link: not signed again.
    const other = await generateSigningKeyPair();
    const forged = await signLinkRecord(
      { ...fields, items: [{ fileId: FILE_B, wrappedKeyB64: bytesToBase64(new Uint8Array(60).fill(9)) }] },
      other.privateKey,
    );
    await expect(resignLinkRecord(forged, changes, signingPublicKeyB64, signing.privateKey)).rejects.toThrow(
      InvalidArgumentError,
    );
    await expect(
      resignLinkRecord(old, { ...changes, linkId: createLinkId() }, signingPublicKeyB64, signing.privateKey),
    ).rejects.toThrow(InvalidArgumentError);
  });
});

describe('file request owner key', () => {
  it('accepts the key whose hash the fragment carries, refuses a swapped one', async () => {
    const owner = await exportPublicKeyB64((await generateUserKeyPair()).publicKey);
    const swapped = await exportPublicKeyB64((await generateUserKeyPair()).publicKey);
    const fragment = parseRequestFragment(
      encodeRequestFragment(createLinkSecret(), await ownerKeySha256Hex(owner)),
    );
    await expect(assertRequestOwnerKey(owner, fragment.ownerKeySha256Hex)).resolves.toBeUndefined();
    await expect(assertRequestOwnerKey(swapped, fragment.ownerKeySha256Hex)).rejects.toThrow(
      RequestKeyMismatchError,
    );
    await expect(assertRequestOwnerKey('not a key', fragment.ownerKeySha256Hex)).rejects.toThrow(
      RequestKeyMismatchError,
    );
  });
});

describe("the owner's signing key pin of a share link", () => {
  it('matches only the pinned key: a swapped key, a missing one or garbage do not', async () => {
    const owner = await exportSigningPublicKeyB64((await generateSigningKeyPair()).publicKey);
    const server = await exportSigningPublicKeyB64((await generateSigningKeyPair()).publicKey);
    const pin = await linkSigningKeyPin(owner);
    expect(pin).toMatch(/^[0-9a-f]{64}$/);
    expect(await linkSigningKeyMatches(owner, pin)).toBe(true);
    expect(await linkSigningKeyMatches(server, pin)).toBe(false);
    expect(await linkSigningKeyMatches(null, pin)).toBe(false);
    expect(await linkSigningKeyMatches('not base64!', pin)).toBe(false);
  });
});

describe('package index', () => {
  it('exports the links room and its errors', async () => {
    const api = await import('../index.js');
    for (const name of [
      'createLinkSecret',
      'createLinkId',
      'encodeLinkFragment',
      'parseLinkFragment',
      'encodeRequestFragment',
      'parseRequestFragment',
      'deriveLinkKeys',
      'linkAuthKeyHashHex',
      'wrapFileKeyForLink',
      'unwrapLinkFileKey',
      'sealLinkMetadata',
      'openLinkMetadata',
      'sealLinkLabel',
      'openLinkLabel',
      'sealRequestMessage',
      'openRequestMessage',
      'signLinkRecord',
      'resignLinkRecord',
      'verifyLinkRecord',
      'assertRequestOwnerKey',
      'ownerKeySha256Hex',
      'linkSigningKeyPin',
      'linkSigningKeyMatches',
      'LinkFragmentError',
      'LinkKeyUnwrapError',
      'RequestKeyMismatchError',
    ]) {
      expect(typeof (api as Record<string, unknown>)[name], name).toBe('function');
    }
  });
});
