import {
  base64ToBytes,
  bytesToBase64Url,
  deriveLinkKeys,
  linkSigningKeyMatches,
  openLinkMetadata,
  parseLinkFragment,
  unwrapLinkFileKey,
  verifyFileManifest,
  verifyLinkRecord,
  type LinkKeys,
  type SignatureCheck,
} from '@coffer/crypto';
import { ApiRequestError } from '../api/http';
import type { ApiClient, ApiClientOptions } from '../api/http';
import { createLinkClient, publicLinksApi } from './links-api';
import { LinkDownloadSession } from './link-session';
import type { LinkPasswordParams, OpenedLinkAnswer } from './link-wire';

/**
 * Why a link page cannot show the files. `unavailable`: unknown, expired, exhausted or revoked (the
 * server answers them alike on purpose); `tampered`: the fragment is malformed or what the server
 * served does not open under the link key; `wrong-password`; `rate-limited`; `failed`: anything
 * else (the network), worth a retry.
 */
export type LinkFailure =
  | 'unavailable'
  | 'tampered'
  | 'wrong-password'
  | 'rate-limited'
  | 'failed'
  /** A file request whose served owner key is not the one the link's fragment names. */
  | 'key-mismatch'
  /**
   * A share link whose served signing key is not the one its fragment pins, or whose record does not
   * verify under it: what the page would show as "signed" rests on a key the sender never made.
   */
  | 'signer-mismatch';

export class LinkOpenError extends Error {
  constructor(
    readonly failure: LinkFailure,
    options?: ErrorOptions,
  ) {
    super(`The link could not be opened (${failure})`, options);
    this.name = 'LinkOpenError';
  }
}

/** One file of an opened link, its key unwrapped and its metadata read. */
export interface OpenedLinkFile {
  readonly fileId: string;
  readonly name: string;
  readonly contentType: string;
  readonly size: number;
  /** Non-extractable coffer-v1 content key. */
  readonly fileKey: CryptoKey;
  /** The owner's manifest of this file (unsigned files from before signatures keep working). */
  readonly manifest: SignatureCheck;
}

/** An opened link: its files, what the server says of its limits, and the client that downloads. */
export interface OpenedLink {
  readonly linkId: string;
  readonly ownerEmail: string;
  readonly expiresAt: string | null;
  readonly downloadsLeft: number | null;
  /** The owner's signed link record against what is served (files, wrapped keys, expiry, limit). */
  readonly record: SignatureCheck;
  /**
   * True when the fragment pins the owner's signing key and the served key is that one (the record
   * and manifests were checked with it); false for a link made before the pin, whose signatures rest
   * on the key the server serves ("signature not pinned").
   */
  readonly signerPinned: boolean;
  readonly files: readonly OpenedLinkFile[];
  /** Carries `X-Link-Auth` on every call, including the content requests, and the download session. */
  readonly client: ApiClient;
  /** This page's download session (what the server counts as one download of the link). */
  readonly session: LinkDownloadSession;
}

/** The first step: the fragment read and whether a password is needed. */
export interface LinkStart {
  readonly linkId: string;
  readonly secretBytes: Uint8Array;
  /** SHA-256 hex of the owner's signing key from the fragment; null for a link from before the pin. */
  readonly ownerSigningKeySha256Hex: string | null;
  readonly password: LinkPasswordParams | null;
}

export type LinkClientOptions = Pick<ApiClientOptions, 'fetchImpl' | 'baseUrl'>;

/** Reads the fragment (`#…`) and asks the server whether the link wants a password. */
export async function startLink(
  linkId: string,
  fragment: string,
  options: LinkClientOptions = {},
): Promise<LinkStart> {
  let parsed: ReturnType<typeof parseLinkFragment>;
  try {
    parsed = parseLinkFragment(fragment);
  } catch (cause) {
    throw new LinkOpenError('tampered', { cause });
  }
  const info = await mapped(publicLinksApi.info(createLinkClient(null, options), linkId));
  return { linkId, ...parsed, password: info.password };
}

/**
 * Derives K and A (with the password when the link has one, and the fragment's signing key pin),
 * opens the link on the server, holds the served signing key to the pin, then opens every file key
 * and name under K and checks the owner's signatures. A wrong password is `wrong-password`; a file
 * key or name that does not open under K (another file, an altered fragment that still parses) is
 * `tampered`; another signing key than the pinned one, or a link record that does not verify under
 * it, is `signer-mismatch`.
 */
export async function openLink(
  start: LinkStart,
  password: string | null,
  options: LinkClientOptions = {},
): Promise<OpenedLink> {
  let keys: LinkKeys;
  try {
    keys = await deriveLinkKeys(
      start.secretBytes,
      start.password === null
        ? undefined
        : {
            password: password ?? '',
            saltBytes: base64ToBytes(start.password.salt),
            kdf: start.password.kdf,
          },
      start.ownerSigningKeySha256Hex,
    );
  } catch (cause) {
    // The server's salt or KDF parameters are malformed or weakened.
    throw new LinkOpenError('tampered', { cause });
  }
  const session = new LinkDownloadSession();
  const client = createLinkClient(bytesToBase64Url(keys.authKeyBytes), options, session);
  const answer = await mapped(publicLinksApi.open(client, start.linkId)).catch((error: unknown) => {
    // Without a password, A comes from the fragment alone: refused, it is the fragment that is wrong.
    if (start.password === null && error instanceof LinkOpenError && error.failure === 'wrong-password')
      throw new LinkOpenError('tampered', { cause: error });
    throw error;
  });
  const pin = start.ownerSigningKeySha256Hex;
  if (pin !== null && !(await linkSigningKeyMatches(answer.ownerSigningPublicKey, pin)))
    throw new LinkOpenError('signer-mismatch');
  let files: OpenedLinkFile[];
  let record: SignatureCheck;
  try {
    const signingKey = ownerSigningKey(answer);
    files = await Promise.all(
      answer.items.map(async (item) => {
        const place = { linkId: start.linkId, fileId: item.fileId };
        const fileKey = await unwrapLinkFileKey(item.wrappedKey, keys.wrapKey, place);
        const metadata = await openLinkMetadata(keys.wrapKey, place, item.encryptedMetadata);
        const contentType = metadata.contentType ?? 'application/octet-stream';
        return {
          fileId: item.fileId,
          name: metadata.name,
          contentType,
          size: item.size,
          fileKey,
          manifest:
            signingKey === null
              ? { status: 'unsigned' as const }
              : await checkManifest(
                  item.manifestJson ?? null,
                  answer.ownerEmail,
                  metadata.name,
                  contentType,
                  item.size,
                  signingKey,
                ),
        };
      }),
    );
    record =
      signingKey === null
        ? { status: 'unsigned' }
        : await verifyLinkRecord(
            answer.linkRecord,
            {
              linkId: start.linkId,
              ownerEmail: answer.ownerEmail,
              items: answer.items.map((item) => ({ fileId: item.fileId, wrappedKeyB64: item.wrappedKey })),
              expiresAt: answer.expiresAt,
              maxDownloads: answer.maxDownloads,
            },
            signingKey,
          );
  } catch (cause) {
    throw new LinkOpenError('tampered', { cause });
  }
  if (files.length === 0) throw new LinkOpenError('unavailable');
  if (pin !== null && record.status !== 'valid') throw new LinkOpenError('signer-mismatch');
  return {
    linkId: start.linkId,
    ownerEmail: answer.ownerEmail,
    expiresAt: answer.expiresAt,
    downloadsLeft: answer.downloadsLeft,
    record,
    signerPinned: pin !== null,
    files,
    client,
    session,
  };
}

/**
 * The owner's signing key as served. For a link with a pin in its fragment, `openLink` has already
 * held it to that pin. A link from before the pin has none: then this only shows that the link and
 * its files are consistent with one owner's signing key (the server could serve another key with
 * records it made itself; what it cannot forge is anything under K, which it never has).
 */
function ownerSigningKey(answer: OpenedLinkAnswer): string | null {
  return answer.ownerSigningPublicKey;
}

/**
 * A manifest signed with an encrypted name (issue 31) names `encrypted` and octet-stream: what the
 * link shows comes from under K, so the manifest is compared on what it can vouch for then.
 */
async function checkManifest(
  manifestJson: string | null,
  ownerEmail: string,
  name: string,
  contentType: string,
  size: number,
  signingKey: string,
): Promise<SignatureCheck> {
  const encryptedName = manifestJson?.includes('"name":"encrypted"') === true;
  return verifyFileManifest(
    manifestJson ?? undefined,
    {
      ownerEmail,
      name: encryptedName ? 'encrypted' : name,
      contentType: encryptedName ? 'application/octet-stream' : contentType,
      size,
    },
    signingKey,
  );
}

/** The API's answers as link failures (docs/key-hierarchy.md: one 404 for every unavailable id). */
async function mapped<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    throw linkFailureOf(error);
  }
}

export function linkFailureOf(error: unknown): LinkOpenError {
  if (error instanceof LinkOpenError) return error;
  if (error instanceof ApiRequestError) {
    if (error.status === 404 || error.status === 410)
      return new LinkOpenError('unavailable', { cause: error });
    if (error.status === 401) return new LinkOpenError('wrong-password', { cause: error });
    if (error.status === 429) return new LinkOpenError('rate-limited', { cause: error });
  }
  return new LinkOpenError('failed', { cause: error });
}
