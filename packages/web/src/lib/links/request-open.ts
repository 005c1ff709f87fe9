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
  readonly client: ApiClient;
}

/**
 * Opens a file request: reads the fragment (secret and the owner's key fingerprint), proves A,
 * and checks the served owner key against the fingerprint before anything is encrypted to it. A
 * swapped key is `key-mismatch`; nothing is sent then.
 */
export async function openRequest(
  requestId: string,
  fragment: string,
  options: LinkClientOptions = {},
): Promise<OpenedRequest> {
  let parsed: ReturnType<typeof parseRequestFragment>;
  try {
    parsed = parseRequestFragment(fragment);
  } catch (cause) {
    throw new LinkOpenError('tampered', { cause });
  }
  const keys = await deriveLinkKeys(parsed.secretBytes);
  const client = createLinkClient(bytesToBase64Url(keys.authKeyBytes), options);
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
  return {
    requestId,
    info,
    message,
    ownerPublicKey: await importPublicKeyB64(info.ownerPublicKey),
    client,
  };
}

/**
 * Uploads one file to a request with the signed-in uploads' pipeline (a fresh file key wrapped to
 * the owner's checked key, chunks encrypted in the crypto worker, direct or multipart), through
 * the request's public upload calls. Not resumable across reloads (no journal: the uploader has no
 * account to keep it under).
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
  });
}
