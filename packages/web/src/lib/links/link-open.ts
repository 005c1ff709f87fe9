import { ApiRequestError } from '../api/http';
import type { ApiClient } from '../api/http';
import type { LinkCryptoPort, LinkKeys, OpenedLinkFile } from './link-crypto-port';
import { createLinkClient, publicLinksApi } from './links-api';
import type { ApiClientOptions } from '../api/http';

/**
 * Why a link page cannot show the files. `unavailable`: unknown, expired, exhausted or revoked (the
 * server answers them alike on purpose); `tampered`: the fragment is malformed or the served link
 * does not match what its owner signed; `wrong-password`; `rate-limited`; `failed`: anything else
 * (the network), worth a retry.
 */
export type LinkFailure = 'unavailable' | 'tampered' | 'wrong-password' | 'rate-limited' | 'failed';

export class LinkOpenError extends Error {
  constructor(
    readonly failure: LinkFailure,
    options?: ErrorOptions,
  ) {
    super(`The link could not be opened (${failure})`, options);
    this.name = 'LinkOpenError';
  }
}

/** An opened link: its files, what the server says of its limits, and the client that downloads. */
export interface OpenedLink {
  readonly linkId: string;
  readonly ownerEmail: string;
  readonly expiresAt: string | null;
  readonly downloadsLeft: number | null;
  readonly files: readonly OpenedLinkFile[];
  /** Carries `X-Link-Auth` on every call, including the content requests. */
  readonly client: ApiClient;
}

/** The first step: the fragment read and whether a password is needed. */
export interface LinkStart {
  readonly linkId: string;
  readonly secretBytes: Uint8Array;
  readonly password: Awaited<ReturnType<typeof publicLinksApi.info>>['password'];
}

export interface LinkOpenDeps {
  readonly crypto: LinkCryptoPort;
  readonly clientOptions?: Pick<ApiClientOptions, 'fetchImpl' | 'baseUrl'>;
}

/** Reads the fragment (`#…`, with or without the hash sign) and asks whether the link wants a password. */
export async function startLink(deps: LinkOpenDeps, linkId: string, fragment: string): Promise<LinkStart> {
  let secretBytes: Uint8Array;
  try {
    secretBytes = deps.crypto.parseLinkFragment(fragment.replace(/^#/, ''));
  } catch (cause) {
    throw new LinkOpenError('tampered', { cause });
  }
  const info = await mapped(publicLinksApi.info(createLinkClient(null, deps.clientOptions), linkId));
  return { linkId, secretBytes, password: info.password };
}

/**
 * Derives the keys (with the password when the link has one), opens the link on the server and
 * checks and decrypts what it answered. A wrong password is `wrong-password`; a served link that
 * its owner did not sign as served is `tampered`.
 */
export async function openLink(
  deps: LinkOpenDeps,
  start: LinkStart,
  password: string | null,
): Promise<OpenedLink> {
  const keys: LinkKeys = await deps.crypto.deriveLinkKeys(
    start.secretBytes,
    start.password === null || password === null ? null : { password, params: start.password },
  );
  const client = createLinkClient(deps.crypto.base64url(keys.authKeyBytes), deps.clientOptions);
  const answer = await mapped(publicLinksApi.open(client, start.linkId));
  let files: readonly OpenedLinkFile[];
  try {
    files = await deps.crypto.openLink(start.linkId, answer, keys);
  } catch (cause) {
    throw new LinkOpenError('tampered', { cause });
  }
  return {
    linkId: start.linkId,
    ownerEmail: answer.ownerEmail,
    expiresAt: answer.expiresAt,
    downloadsLeft: answer.downloadsLeft,
    files,
    client,
  };
}

/** The API's answers as link failures (docs/key-hierarchy.md: 404 for every unavailable id). */
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
