import {
  createLinkId,
  createLinkSecret,
  deriveLinkKeys,
  encodeRequestFragment,
  linkAuthKeyHashHex,
  ownerKeySha256Hex,
  sealRequestMessage,
} from '@coffer/crypto';
import type { ApiClient } from '../api/http';
import { linksApi } from './links-api';

export interface RequestSettings {
  readonly expiresAt: string | null;
  readonly maxFiles: number;
  readonly maxBytes: number;
  /** '' or null: none. Sealed under the request's K: the server never reads it. */
  readonly message: string | null;
  readonly signedInOnly: boolean;
}

export interface CreatedRequest {
  readonly requestId: string;
  /** `${origin}/r/${id}#<secret>.<my RSA key's SHA-256>`. */
  readonly url: string;
}

/**
 * Makes a file request: a new secret S, K and A from it, the message sealed under K, SHA-256(A)
 * to the server; the link's fragment carries S and the fingerprint of my public key, so an
 * uploader's browser refuses a key the server swapped.
 */
export async function createFileRequest(
  api: ApiClient,
  ownerPublicKeyB64: string,
  settings: RequestSettings,
  origin: string = window.location.origin,
): Promise<CreatedRequest> {
  const requestId = createLinkId();
  const secretBytes = createLinkSecret();
  const keys = await deriveLinkKeys(secretBytes);
  const message =
    settings.message === null || settings.message.trim() === ''
      ? null
      : await sealRequestMessage(keys.wrapKey, requestId, settings.message.trim());
  await linksApi.createRequest(api, {
    requestId,
    expiresAt: settings.expiresAt,
    maxFiles: settings.maxFiles,
    maxBytes: settings.maxBytes,
    message,
    signedInOnly: settings.signedInOnly,
    authKeyHash: await linkAuthKeyHashHex(keys.authKeyBytes),
  });
  const fragment = encodeRequestFragment(secretBytes, await ownerKeySha256Hex(ownerPublicKeyB64));
  return { requestId, url: `${origin}/r/${requestId}#${fragment}` };
}
