import { randomBytes } from 'node:crypto';
import {
  ErrorCode,
  type CreateLinkRequest,
  type LinkState,
  type OpenedLink,
  type OwnerLink,
  type PublicLinkInfo,
  type UpdateLinkRequest,
} from '@coffer/contracts';
import { ApiError, NotFoundError, ValidationError } from '../../http/errors.js';
import { nowIso } from '../../infra/db/values.js';
import type { RateLimiter } from '../../infra/rate-limit/rate-limiter.js';
import type { BlobStore } from '../../infra/storage/blob-store.js';
import { BlobNotFoundError, BlobRangeNotSatisfiableError } from '../../infra/storage/blob-store.js';
import {
  openStoredRange,
  RangeNotSatisfiableError,
  RESUME_WINDOW_MS,
  type Download,
} from '../files/downloads.service.js';
import { resolveRangeHeader } from '../files/http-range.js';
import type { CurrentUser } from '../users/users.service.js';
import { checkLinkAuth, linkUnavailable, tokenHash } from './link-access.js';
import type { LinkRow, LinksRepo } from './links.repo.js';

/** Links one person may hold at once. */
export const MAX_LINKS_PER_USER = 1000;
/**
 * How long a download session lasts: its files start and resume without counting again. The same
 * day a signed-in download's resume is free (`RESUME_WINDOW_MS`).
 */
export const DOWNLOAD_TOKEN_TTL_MS = RESUME_WINDOW_MS;
/** A session token as the page sends it: 32 bytes, base64url. */
const SESSION_TOKEN = /^[A-Za-z0-9_-]{43}$/;
const SWEEP_BATCH = 500;

/** Who calls a public link route: the proof they sent and their address (TRUST_PROXY-aware). */
export interface LinkCaller {
  authHeader: string | string[] | undefined;
  address: string;
}

/** A link download about to stream, with the token to resume it when it was counted now. */
export interface LinkDownload extends Download {
  downloadToken: string | null;
}

export interface LinksDeps {
  repo: LinksRepo;
  blobStore: BlobStore;
  limiter: RateLimiter;
  now: () => Date;
  logger: { error(obj: object, msg: string): void };
}

const linkNotFound = () => new NotFoundError('No such link');

/** Why a link serves nothing now, or `active`. Expiry and limits are the server's clock and counts. */
export function linkState(link: LinkRow, itemCount: number, at: string): LinkState {
  if (link.expires_at !== null && link.expires_at <= at) return 'expired';
  if (itemCount === 0) return 'empty';
  if (link.max_downloads !== null && link.downloads_used >= link.max_downloads) return 'exhausted';
  return 'active';
}

function checkRecord(linkRecord: string, linkId: string): void {
  // The server cannot verify the owner's signature usefully (it could forge a record only with the
  // owner's key); it only refuses a record that is not for this link, a mistake caught early.
  let record: unknown;
  try {
    record = JSON.parse(linkRecord);
  } catch {
    throw new ValidationError('linkRecord is not JSON');
  }
  const { type, linkId: recordLinkId } = (record ?? {}) as Record<string, unknown>;
  if (type !== 'link' || recordLinkId !== linkId)
    throw new ValidationError('linkRecord is not a link record of this link');
}

function checkFuture(expiresAt: string | null | undefined, at: string): void {
  if (expiresAt !== null && expiresAt !== undefined && new Date(expiresAt).toISOString() <= at) {
    throw new ValidationError('expiresAt must be in the future');
  }
}

export function createLinksService(deps: LinksDeps) {
  const { repo } = deps;
  const at = () => nowIso(deps.now());

  function ownerView(link: LinkRow & { fileIds: string[] }, now: string): OwnerLink {
    return {
      linkId: link.id,
      state: linkState(link, link.fileIds.length, now),
      fileIds: link.fileIds,
      label: link.label,
      hasPassword: link.password_salt !== null,
      expiresAt: link.expires_at,
      maxDownloads: link.max_downloads,
      downloadsUsed: link.downloads_used,
      downloadsLeft:
        link.max_downloads === null ? null : Math.max(0, link.max_downloads - link.downloads_used),
      linkRecord: link.link_record,
      createdAt: link.created_at,
      lastUsedAt: link.last_used_at,
    };
  }

  /** A link that serves something now (for `open`, also one with a download left), else the one 404. */
  async function available(linkId: string, forOpen: boolean) {
    const link = await repo.findPublic(linkId);
    if (link === undefined) throw linkUnavailable();
    const items = await repo.items(linkId);
    const state = linkState(link, items.length, at());
    if (state === 'expired' || state === 'empty' || (forOpen && state === 'exhausted'))
      throw linkUnavailable();
    return { link, items };
  }

  async function authorized(linkId: string, caller: LinkCaller, forOpen: boolean) {
    const found = await available(linkId, forOpen);
    await checkLinkAuth({
      limiter: deps.limiter,
      linkId,
      address: caller.address,
      header: caller.authHeader,
      storedHash: found.link.auth_key_hash,
    });
    return found;
  }

  return {
    async create(user: CurrentUser, body: CreateLinkRequest): Promise<{ linkId: string }> {
      const now = at();
      checkFuture(body.expiresAt, now);
      checkRecord(body.linkRecord, body.linkId);
      const fileIds = body.items.map((item) => item.fileId);
      if (new Set(fileIds).size !== fileIds.length) throw new ValidationError('a file is listed twice');
      if ((await repo.ownedEncryptedCount(user.id, fileIds)) !== fileIds.length) {
        throw new NotFoundError('The file does not exist', ErrorCode.FILE_NOT_FOUND);
      }
      const key = await repo.ownerKey(user.id);
      if (key === undefined) {
        throw new ApiError(404, ErrorCode.KEYS_NOT_FOUND, 'Set up your encryption keys first');
      }
      if ((await repo.countOwned(user.id)) >= MAX_LINKS_PER_USER) {
        throw new ApiError(403, ErrorCode.SHARE_LIMIT_REACHED, `At most ${MAX_LINKS_PER_USER} links`);
      }
      const inserted = await repo.insert({
        id: body.linkId,
        ownerId: user.id,
        ownerKeyId: key.id,
        authKeyHash: body.authKeyHash,
        passwordSalt: body.password?.salt ?? null,
        passwordKdf: body.password === null ? null : JSON.stringify(body.password.kdf),
        expiresAt: body.expiresAt === null ? null : new Date(body.expiresAt).toISOString(),
        maxDownloads: body.maxDownloads,
        label: body.label,
        linkRecord: body.linkRecord,
        at: now,
        items: body.items,
      });
      if (!inserted)
        throw new ApiError(409, ErrorCode.INVALID_OPERATION, 'This link id is taken: make a new one');
      return { linkId: body.linkId };
    },

    async list(user: CurrentUser, fileId?: string): Promise<OwnerLink[]> {
      const now = at();
      return (await repo.listOwned(user.id, fileId)).map((link) => ownerView(link, now));
    },

    async update(user: CurrentUser, linkId: string, body: UpdateLinkRequest): Promise<OwnerLink> {
      const now = at();
      const signed = body.expiresAt !== undefined || body.maxDownloads !== undefined;
      if (signed && body.linkRecord === undefined) {
        throw new ValidationError('a new expiry or download limit needs a new signed linkRecord');
      }
      checkFuture(body.expiresAt, now);
      if (body.linkRecord !== undefined) checkRecord(body.linkRecord, linkId);
      const updated = await repo.update(
        user.id,
        linkId,
        {
          ...(body.expiresAt === undefined
            ? {}
            : { expires_at: body.expiresAt === null ? null : new Date(body.expiresAt).toISOString() }),
          ...(body.maxDownloads === undefined ? {} : { max_downloads: body.maxDownloads }),
          ...(body.label === undefined ? {} : { label: body.label }),
          ...(body.linkRecord === undefined ? {} : { link_record: body.linkRecord }),
        },
        now,
      );
      if (!updated) throw linkNotFound();
      const link = (await repo.listOwned(user.id)).find((row) => row.id === linkId);
      if (link === undefined) throw linkNotFound();
      return ownerView(link, now);
    },

    async revoke(user: CurrentUser, linkId: string): Promise<void> {
      if (!(await repo.delete(user.id, linkId))) throw linkNotFound();
    },

    /** What a link page needs before it can derive `A`: the password's salt and KDF, or null. */
    async info(linkId: string): Promise<PublicLinkInfo> {
      const { link } = await available(linkId, true);
      if (link.password_salt === null || link.password_kdf === null) return { password: null };
      return { password: { salt: link.password_salt, kdf: JSON.parse(link.password_kdf) as never } };
    },

    /** The wrapped keys, sealed metadata and the owner's keys, for a caller that proved `A`. */
    async open(linkId: string, caller: LinkCaller): Promise<OpenedLink> {
      const { link, items } = await authorized(linkId, caller, true);
      const owner = await repo.owner(link.owner_id, link.owner_key_id);
      if (owner === undefined || owner.email === null) throw linkUnavailable();
      await repo.touch(linkId, at());
      return {
        items: items.map((item) => ({
          fileId: item.file_id,
          size: item.size,
          wrappedKey: item.wrapped_key,
          encryptedMetadata: item.encrypted_metadata,
          ...(item.manifest === null ? {} : { manifestJson: item.manifest }),
        })),
        ownerEmail: owner.email,
        ownerSigningPublicKey: owner.signing_public_key,
        ownerKeyBinding: owner.key_binding,
        expiresAt: link.expires_at,
        maxDownloads: link.max_downloads,
        downloadsLeft:
          link.max_downloads === null ? null : Math.max(0, link.max_downloads - link.downloads_used),
        linkRecord: link.link_record,
      };
    },

    /**
     * A file of a link, within a download session (docs/key-hierarchy.md "Counting downloads"). The
     * session is the `X-Link-Download` token the page sends (32 random bytes it chose), or one made
     * here and answered in that header when the request carries none. A session counts ONE download
     * of the link when it is first seen; with it, every file of the link starts and resumes without
     * counting again, except a file the session starts from byte 0 a second time (a new download).
     * The count is one UPDATE with its checks, in the transaction that records the session.
     */
    async download(
      linkId: string,
      fileId: string,
      caller: LinkCaller & { rangeHeader: string | undefined; downloadToken: string | undefined },
    ): Promise<LinkDownload> {
      const { items } = await authorized(linkId, caller, false);
      const item = items.find((candidate) => candidate.file_id === fileId);
      if (item === undefined) throw linkUnavailable();
      const range = resolveRangeHeader(caller.rangeHeader, item.stored_size);
      if (range.kind === 'unsatisfiable') throw new RangeNotSatisfiableError(item.stored_size);
      const now = deps.now();
      const fromStart = range.kind === 'whole' || range.start === 0;
      const sentToken =
        caller.downloadToken !== undefined && SESSION_TOKEN.test(caller.downloadToken)
          ? caller.downloadToken
          : null;
      const sent = sentToken !== null;
      const token = sentToken ?? randomBytes(32).toString('base64url');
      const sessionHash = tokenHash(token);
      const session = await repo.claimDownloadSession(
        sessionHash,
        linkId,
        nowIso(new Date(now.getTime() + DOWNLOAD_TOKEN_TTL_MS)),
        nowIso(now),
      );
      if (!('expiresAt' in session)) throw linkUnavailable();
      const markHash = tokenHash(`${token}/${fileId}`);
      const firstStart = await repo.markFileStart(markHash, linkId, fileId, session.expiresAt, nowIso(now));
      // A restart from byte 0 of a file this session already started is a download of its own.
      const restarted = !firstStart && fromStart;
      if (restarted && !(await repo.countDownload(linkId, nowIso(now)))) throw linkUnavailable();
      const giveBack = async () => {
        const counted = session.kind === 'new' || restarted;
        await Promise.all([
          counted ? repo.releaseDownload(linkId) : Promise.resolve(),
          repo.deleteDownloadRows([
            ...(session.kind === 'new' ? [sessionHash] : []),
            ...(firstStart ? [markHash] : []),
          ]),
        ]).catch((err: unknown) => {
          deps.logger.error({ err, linkId }, 'link download count of a failed download not released');
        });
      };
      try {
        const download = await openStoredRange(deps.blobStore, item.object_key, range);
        return { ...download, downloadToken: sent ? null : token };
      } catch (error) {
        await giveBack();
        if (error instanceof BlobRangeNotSatisfiableError)
          throw new RangeNotSatisfiableError(item.stored_size);
        if (error instanceof BlobNotFoundError) throw linkUnavailable();
        throw error;
      }
    },

    /** Deletes expired download sessions and their marks (the server's sweeper); how many. */
    async sweepDownloads(): Promise<number> {
      let swept = 0;
      for (;;) {
        const n = await repo.sweepExpiredDownloads(at(), SWEEP_BATCH);
        swept += n;
        if (n < SWEEP_BATCH) return swept;
      }
    },
  };
}

export type LinksService = ReturnType<typeof createLinksService>;
