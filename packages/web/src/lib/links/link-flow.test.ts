import { describe, expect, it } from 'vitest';
import {
  bytesToHex,
  decryptChunk,
  encryptChunk,
  generateFileKey,
  sha256,
  wrapFileKey,
  base64UrlToBytes,
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
      ownerSigningPublicKey: owner.signingPublicKeyB64,
      ownerKeyBinding: owner.keyBindingJson,
      expiresAt: link.body.expiresAt,
      maxDownloads: link.body.maxDownloads,
      downloadsLeft: link.body.maxDownloads,
      linkRecord: link.body.linkRecord,
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
      { email: owner.email, privateKey: owner.privateKey, signingPrivateKey: owner.signingPrivateKey },
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
    expect(created.url).toMatch(new RegExp(`^${ORIGIN}/l/[A-Za-z0-9_-]{22}#[A-Za-z0-9_-]{43}$`));
    const secret = created.url.split('#')[1] ?? '';
    // Nothing the server received carries the secret.
    expect(JSON.stringify([...server.links.values()])).not.toContain(secret);

    const link = await open(created.url, null);
    expect(link.files.map((file) => [file.name, file.contentType])).toEqual([
      ['report.pdf', 'application/pdf'],
    ]);
    expect(link.record).toEqual({ status: 'valid' });
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
    const idOf = (url: string) => new URL(url).pathname.split('/')[2] ?? '';
    const victim = server.links.get(idOf(second.url));
    const other = server.links.get(idOf(first.url));
    if (victim === undefined || other === undefined) throw new Error('links not stored');
    victim.servedItems = other.body.items;
    expect(await failureOf(open(second.url, null))).toBe('tampered');
  });
});
