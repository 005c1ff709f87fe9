import {
  assertRequestOwnerKey,
  bytesToBase64Url,
  deriveLinkKeys,
  importPublicKeyB64,
  openRequestMessage,
  parseRequestFragment,
  RequestKeyMismatchError,
} from '@coffer/crypto';
import type { FileListItem } from '@coffer/contracts';
import type { ApiClient } from '../api/http';
import { getSharedChunkCipher } from '../crypto-worker';
import type { ProgressListener } from '../transfers/transfer-types';
import { uploadFile } from '../transfers/upload';
import { LinkOpenError, linkFailureOf, type LinkClientOptions } from './link-open';
import { createLinkClient, publicLinksApi } from './links-api';
import { seg } from '../api/http';
import type { PublicRequestInfo } from './link-wire';

/** A file request opened by its uploader: the owner's key checked, the message read. */
export interface OpenedRequest {
  readonly requestId: string;
  readonly info: PublicRequestInfo;
  /** The owner's message, decrypted (null: none). */
  readonly message: string | null;
  /** The owner's RSA key, checked against the fragment's fingerprint: files are encrypted to it. */
  readonly ownerPublicKey: CryptoKey;
  /** Proves A on every call; for a signed-in visitor, also carries their bearer token. */
  readonly client: ApiClient;
  /** Whether the calls carry the visitor's sign-in (`signedIn` given and a token there). */
  readonly signedIn: boolean;
}

/** What opening a request may use of the visitor's own sign-in. */
export interface RequestOpenOptions extends LinkClientOptions {
  /**
   * The signed-in visitor's access token (null: signed out). A request that takes files from
   * signed-in people only needs it on its upload calls; others are sent without it.
   */
  readonly getAccessToken?: () => Promise<string | null>;
}

/**
 * The link client with the visitor's bearer token on every call too (XHR uploads take it from
 * `authHeaders`): the server records the signed-in sender of a signed-in-only request.
 */
export function withSignIn(client: ApiClient, getAccessToken: () => Promise<string | null>): ApiClient {
  const bearer = async (): Promise<Record<string, string>> => {
    const token = await getAccessToken();
    return token === null ? {} : { Authorization: `Bearer ${token}` };
  };
  return {
    request: async (method, path, opts = {}) =>
      client.request(method, path, { ...opts, headers: { ...(await bearer()), ...opts.headers } }),
    fetchRaw: async (method, path, opts = {}) =>
      client.fetchRaw(method, path, { ...opts, headers: { ...(await bearer()), ...opts.headers } }),
    authHeaders: async () => ({ ...(await client.authHeaders()), ...(await bearer()) }),
    reportUnauthorized: () => {
      client.reportUnauthorized();
    },
  };
}

/**
 * Opens a file request: reads the fragment (secret and the owner's key fingerprint), proves A,
 * and checks the served owner key against the fingerprint before anything is encrypted to it. A
 * swapped key is `key-mismatch`; nothing is sent then.
 */
export async function openRequest(
  requestId: string,
  fragment: string,
  options: RequestOpenOptions = {},
): Promise<OpenedRequest> {
  let parsed: ReturnType<typeof parseRequestFragment>;
  try {
    parsed = parseRequestFragment(fragment);
  } catch (cause) {
    throw new LinkOpenError('tampered', { cause });
  }
  const keys = await deriveLinkKeys(parsed.secretBytes);
  const { getAccessToken, ...clientOptions } = options;
  const client = createLinkClient(bytesToBase64Url(keys.authKeyBytes), clientOptions);
  let info: PublicRequestInfo;
  try {
    info = await publicLinksApi.request(client, requestId);
  } catch (error) {
    throw linkFailureOf(error);
  }
  try {
    await assertRequestOwnerKey(info.ownerPublicKey, parsed.ownerKeySha256Hex);
  } catch (cause) {
    if (cause instanceof RequestKeyMismatchError) throw new LinkOpenError('key-mismatch', { cause });
    throw new LinkOpenError('tampered', { cause });
  }
  let message: string | null;
  try {
    message = info.message === null ? null : await openRequestMessage(keys.wrapKey, requestId, info.message);
  } catch (cause) {
    throw new LinkOpenError('tampered', { cause });
  }
  // Only a signed-in-only request learns who sends: an open one is sent to as by anyone.
  const token = info.signedInOnly && getAccessToken !== undefined ? await getAccessToken() : null;
  return {
    requestId,
    info,
    message,
    ownerPublicKey: await importPublicKeyB64(info.ownerPublicKey),
    client: token === null || getAccessToken === undefined ? client : withSignIn(client, getAccessToken),
    signedIn: token !== null,
  };
}

/**
 * Uploads one file to a request with the signed-in uploads' pipeline (a fresh file key wrapped to
 * the owner's checked key, chunks encrypted in the crypto worker, direct or multipart), through
 * the request's public upload calls. The name and type go sealed under the file key
 * (`forRequest`: the server is told `encrypted`); the owner's browser opens and places the file.
 * Not resumable across reloads (no journal: the uploader has no account to keep it under).
 */
export function uploadToRequest(
  request: OpenedRequest,
  file: File,
  signal: AbortSignal,
  onProgress: ProgressListener,
): Promise<FileListItem> {
  return uploadFile({
    api: request.client,
    file,
    cipher: getSharedChunkCipher(),
    signal,
    onProgress,
    keys: { publicKey: request.ownerPublicKey, keyVersion: request.info.ownerKeyId },
    uploadsPath: `/public/requests/${seg(request.requestId)}/uploads`,
    records: null,
    forRequest: true,
  });
}
