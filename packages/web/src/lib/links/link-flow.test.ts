import { describe, expect, it } from 'vitest';
import {
  bytesToHex,
  decryptChunk,
  encryptChunk,
  generateFileKey,
  sha256,
  wrapFileKey,
  base64UrlToBytes,
  createLinkId,
  createLinkSecret,
  deriveLinkKeys,
  encodeLinkFragment,
  linkAuthKeyHashHex,
  linkSigningKeyPin,
  sealLinkMetadata,
  signLinkRecord,
  wrapFileKeyForLink,
} from '@coffer/crypto';
import { createApiClient } from '../api/http';
import { makeTrustIdentity, type TrustIdentity } from '../trust/testing/trust-identities';
import { createShareLink } from './link-create';
import { LinkOpenError, openLink, startLink, type LinkFailure } from './link-open';
import type { CreateLinkBody } from './link-wire';

const FILE_ID = '0b6f1f4e-8a0c-4c41-9d3c-3f6c2a3b1e11';
const ORIGIN = 'https://coffer.test';

interface StoredLink {
  body: CreateLinkBody;
  /** A stand-in for a server that serves something else under the link. */
  servedItems?: CreateLinkBody['items'];
  /** A stand-in for a server that serves its own signing key, with a link record it signed. */
  servedSigner?: { signingPublicKeyB64: string; linkRecord: string };
}

/** The links API as the first cut describes it, in memory: enough for the browser's side. */
function fakeServer(owner: TrustIdentity, encryptedFileKey: string) {
  const links = new Map<string, StoredLink>();
  const json = (status: number, value: unknown): Response =>
    new Response(JSON.stringify(value), { status, headers: { 'Content-Type': 'application/json' } });
  const fetchImpl: typeof fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : input, ORIGIN);
    const path = url.pathname.replace(/^\/api/, '');
    const method = init?.method ?? 'GET';
    const headers = new Headers(init?.headers);
    if (method === 'GET' && path === `/users/files/${FILE_ID}`) {
      return json(200, { id: FILE_ID, encryptionInfo: { encryptedFileKey } });
    }
    if (method === 'POST' && path === '/users/links') {
      const body = JSON.parse(init?.body as string) as CreateLinkBody;
      links.set(body.linkId, { body });
      return json(201, { linkId: body.linkId });
    }
    const match = /^\/public\/links\/([^/]+)(\/open)?$/.exec(path);
    const link = match === null ? undefined : links.get(decodeURIComponent(match[1] ?? ''));
    if (match === null || link === undefined) return json(404, { code: 'LINK_UNAVAILABLE' });
    if (match[2] === undefined) return json(200, { password: link.body.password });
    const auth = headers.get('X-Link-Auth') ?? '';
    const hash = bytesToHex(await sha256(base64UrlToBytes(auth)));
    if (hash !== link.body.authKeyHash) return json(401, { code: 'LINK_AUTH_FAILED' });
    return json(200, {
      items: (link.servedItems ?? link.body.items).map((item) => ({ ...item, size: 11 })),
      ownerEmail: owner.email,
      ownerSigningPublicKey: link.servedSigner?.signingPublicKeyB64 ?? owner.signingPublicKeyB64,
      ownerKeyBinding: owner.keyBindingJson,
      expiresAt: link.body.expiresAt,
      maxDownloads: link.body.maxDownloads,
      downloadsLeft: link.body.maxDownloads,
      linkRecord: link.servedSigner?.linkRecord ?? link.body.linkRecord,
    });
  };
  return { links, fetchImpl };
}

async function setUp() {
  const owner = await makeTrustIdentity('owner@example.com');
  const fileKey = await generateFileKey();
  const server = fakeServer(owner, await wrapFileKey(fileKey, await importOwnerPublicKey(owner)));
  const api = createApiClient({
    getAccessToken: () => Promise.resolve('token'),
    fetchImpl: server.fetchImpl,
  });
  const make = (password: string | null, expiresAt: string | null = null) =>
    createShareLink(
      api,
      {
        email: owner.email,
        privateKey: owner.privateKey,
        signingPrivateKey: owner.signingPrivateKey,
        signingPublicKeyB64: owner.signingPublicKeyB64,
      },
      [{ fileId: FILE_ID, name: 'report.pdf', contentType: 'application/pdf' }],
      { expiresAt, maxDownloads: 5, password, label: null },
      ORIGIN,
    );
  const open = async (url: string, password: string | null) => {
    const parsed = new URL(url);
    const linkId = parsed.pathname.split('/')[2] ?? '';
    const start = await startLink(linkId, parsed.hash, { fetchImpl: server.fetchImpl });
    return openLink(start, password, { fetchImpl: server.fetchImpl });
  };
  return { owner, fileKey, server, make, open };
}

const linkIdOf = (url: string): string => new URL(url).pathname.split('/')[2] ?? '';

async function importOwnerPublicKey(owner: TrustIdentity): Promise<CryptoKey> {
  const { importPublicKeyB64 } = await import('@coffer/crypto');
  return importPublicKeyB64(owner.publicKeyB64);
}

async function failureOf(promise: Promise<unknown>): Promise<LinkFailure | 'none'> {
  try {
    await promise;
    return 'none';
  } catch (error) {
    if (error instanceof LinkOpenError) return error.failure;
    throw error;
  }
}

describe('share links in the browser (issue 30)', () => {
  it('makes a link whose secret is only in the fragment, and opens it to the same file key and name', async () => {
    const { fileKey, server, make, open } = await setUp();
    const created = await make(null);
    expect(created.url).toMatch(
      new RegExp(`^${ORIGIN}/l/[A-Za-z0-9_-]{22}#[A-Za-z0-9_-]{43}\\.[0-9a-f]{64}$`),
    );
    const secret = (created.url.split('#')[1] ?? '').split('.')[0] ?? '';
    // Nothing the server received carries the secret.
    expect(JSON.stringify([...server.links.values()])).not.toContain(secret);

    const link = await open(created.url, null);
    expect(link.files.map((file) => [file.name, file.contentType])).toEqual([
      ['report.pdf', 'application/pdf'],
    ]);
    expect(link.record).toEqual({ status: 'valid' });
    expect(link.signerPinned).toBe(true);
    const sealed = await encryptChunk(fileKey, 0, true, new TextEncoder().encode('hello there'));
    const [opened] = link.files;
    if (opened === undefined) throw new Error('no file');
    const plain = await decryptChunk(opened.fileKey, 0, true, sealed);
    expect(new TextDecoder().decode(plain)).toBe('hello there');
  });

  it('asks for the password: a wrong one is refused, the right one opens', async () => {
    const { make, open } = await setUp();
    const created = await make('tulip-Orbit-42');
    expect(await failureOf(open(created.url, 'tulip-orbit-42'))).toBe('wrong-password');
    const link = await open(created.url, 'tulip-Orbit-42');
    expect(link.files[0]?.name).toBe('report.pdf');
  });

  it('calls an altered or cut fragment damaged, and an unknown id unavailable', async () => {
    const { make, open } = await setUp();
    const created = await make(null);
    const [base = '', secret = ''] = created.url.split('#');
    const flipped = `${secret.startsWith('A') ? 'B' : 'A'}${secret.slice(1)}`;
    expect(await failureOf(open(`${base}#${flipped}`, null))).toBe('tampered');
    expect(await failureOf(open(`${base}#${secret.slice(0, 20)}`, null))).toBe('tampered');
    expect(await failureOf(open(`${ORIGIN}/l/AAAAAAAAAAAAAAAAAAAAAA#${secret}`, null))).toBe('unavailable');
  });

  it("catches a server that serves another link's item under this link", async () => {
    const { server, make, open } = await setUp();
    const first = await make(null);
    const second = await make(null);
    const victim = server.links.get(linkIdOf(second.url));
    const other = server.links.get(linkIdOf(first.url));
    if (victim === undefined || other === undefined) throw new Error('links not stored');
    victim.servedItems = other.body.items;
    expect(await failureOf(open(second.url, null))).toBe('tampered');
  });

  it("catches a server that swaps the owner's signing key and signs the link record with its own", async () => {
    const { server, make, open } = await setUp();
    const created = await make(null);
    const stored = server.links.get(linkIdOf(created.url));
    if (stored === undefined) throw new Error('link not stored');
    const impostor = await makeTrustIdentity('owner@example.com', 'key-impostor');
    // What the server has is enough to sign the same record with a key of its own.
    stored.servedSigner = {
      signingPublicKeyB64: impostor.signingPublicKeyB64,
      linkRecord: await signLinkRecord(
        {
          linkId: stored.body.linkId,
          ownerEmail: impostor.email,
          items: stored.body.items.map((item) => ({ fileId: item.fileId, wrappedKeyB64: item.wrappedKey })),
          expiresAt: stored.body.expiresAt,
          maxDownloads: stored.body.maxDownloads,
        },
        impostor.signingPrivateKey,
      ),
    };
    expect(await failureOf(open(created.url, null))).toBe('signer-mismatch');
    // A pin altered in the URL to the impostor's key derives another A: the server refuses it.
    const [base = '', fragment = ''] = created.url.split('#');
    const forgedPin = await linkSigningKeyPin(impostor.signingPublicKeyB64);
    expect(await failureOf(open(`${base}#${fragment.split('.')[0] ?? ''}.${forgedPin}`, null))).toBe(
      'tampered',
    );
  });

  it('opens a link from before the pin (secret only) as "not pinned", checked with the served key', async () => {
    const { owner, server, open } = await setUp();
    const linkId = createLinkId();
    const secret = createLinkSecret();
    const keys = await deriveLinkKeys(secret);
    const place = { linkId, fileId: FILE_ID };
    const encryptedFileKeyB64 = (
      (await (await server.fetchImpl(`${ORIGIN}/api/users/files/${FILE_ID}`)).json()) as {
        encryptionInfo: { encryptedFileKey: string };
      }
    ).encryptionInfo.encryptedFileKey;
    const wrappedKey = await wrapFileKeyForLink(
      { encryptedFileKeyB64, rsaPrivateKey: owner.privateKey },
      keys.wrapKey,
      place,
    );
    const items = [
      {
        fileId: FILE_ID,
        wrappedKey,
        encryptedMetadata: await sealLinkMetadata(keys.wrapKey, place, { name: 'old.txt' }),
      },
    ];
    server.links.set(linkId, {
      body: {
        linkId,
        items,
        expiresAt: null,
        maxDownloads: null,
        label: null,
        authKeyHash: await linkAuthKeyHashHex(keys.authKeyBytes),
        password: null,
        linkRecord: await signLinkRecord(
          {
            linkId,
            ownerEmail: owner.email,
            items: [{ fileId: FILE_ID, wrappedKeyB64: wrappedKey }],
            expiresAt: null,
            maxDownloads: null,
          },
          owner.signingPrivateKey,
        ),
      },
    });
    const link = await open(`${ORIGIN}/l/${linkId}#${encodeLinkFragment(secret)}`, null);
    expect(link.files[0]?.name).toBe('old.txt');
    expect(link.signerPinned).toBe(false);
    expect(link.record).toEqual({ status: 'valid' });
  });
});
