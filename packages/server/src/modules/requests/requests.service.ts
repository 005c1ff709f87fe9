import {
  ErrorCode,
  type CreateRequestRequest,
  type OwnerRequest,
  type PublicRequest,
  type RequestState,
  type UpdateRequestRequest,
} from '@coffer/contracts';
import { ApiError, NotFoundError, ValidationError } from '../../http/errors.js';
import { fromDbBool, nowIso } from '../../infra/db/values.js';
import type { RateLimiter } from '../../infra/rate-limit/rate-limiter.js';
import { checkLinkAuth, linkUnavailable } from '../links/link-access.js';
import type { LinkCaller } from '../links/links.service.js';
import type { CurrentUser } from '../users/users.service.js';
import type { FileRequestRow, RequestsRepo } from './requests.repo.js';

/** File requests one person may hold at once. */
export const MAX_REQUESTS_PER_USER = 1000;

export interface RequestsDeps {
  repo: RequestsRepo;
  limiter: RateLimiter;
  now: () => Date;
}

const requestNotFound = () => new NotFoundError('No such file request');

/**
 * Whether a request is closed or expired, else `active`. Whether it is full is counted from its files
 * and uploads in progress (`RequestsRepo.usage`; for an upload, in the step that reserves it).
 */
export function requestState(request: FileRequestRow, at: string): Exclude<RequestState, 'full'> {
  if (request.closed_at !== null) return 'closed';
  if (request.expires_at !== null && request.expires_at <= at) return 'expired';
  return 'active';
}

const iso = (value: string | null): string | null => (value === null ? null : new Date(value).toISOString());

/**
 * An active request for a caller that proved its `A` (rate-limited per request and per address);
 * unknown, closed or expired ids are the one 404, a wrong proof 401.
 */
export async function provenRequest(
  deps: { repo: Pick<RequestsRepo, 'findPublic'>; limiter: RateLimiter },
  requestId: string,
  caller: LinkCaller,
  at: string,
): Promise<FileRequestRow> {
  const request = await deps.repo.findPublic(requestId);
  if (request === undefined || requestState(request, at) !== 'active') throw linkUnavailable();
  await checkLinkAuth({
    limiter: deps.limiter,
    linkId: requestId,
    address: caller.address,
    header: caller.authHeader,
    storedHash: request.auth_key_hash,
  });
  return request;
}

export function createRequestsService(deps: RequestsDeps) {
  const { repo } = deps;
  const at = () => nowIso(deps.now());

  function ownerView(
    request: FileRequestRow & {
      fileIds: string[];
      receivedBytes: number;
      senders: { fileId: string; email: string }[];
    },
    now: string,
  ): OwnerRequest {
    return {
      requestId: request.id,
      state:
        requestState(request, now) === 'active' &&
        (request.fileIds.length >= request.max_files || request.receivedBytes >= request.max_bytes)
          ? 'full'
          : requestState(request, now),
      expiresAt: request.expires_at,
      maxFiles: request.max_files,
      maxBytes: request.max_bytes,
      // What came through it (uploads in progress count against its limits, not here).
      filesUsed: request.fileIds.length,
      bytesUsed: request.receivedBytes,
      message: request.message,
      signedInOnly: fromDbBool(request.signed_in_only),
      fileIds: request.fileIds,
      senders: request.senders,
      createdAt: request.created_at,
      lastUsedAt: request.last_used_at,
    };
  }

  return {
    async create(user: CurrentUser, body: CreateRequestRequest): Promise<{ linkId: string }> {
      const now = at();
      const expiresAt = iso(body.expiresAt);
      if (expiresAt !== null && expiresAt <= now)
        throw new ValidationError('expiresAt must be in the future');
      const ownerKeyId = await repo.ownerKeyId(user.id);
      if (ownerKeyId === undefined)
        throw new ApiError(404, ErrorCode.KEYS_NOT_FOUND, 'Set up your encryption keys first');
      if ((await repo.countOwned(user.id)) >= MAX_REQUESTS_PER_USER) {
        throw new ApiError(
          403,
          ErrorCode.SHARE_LIMIT_REACHED,
          `At most ${MAX_REQUESTS_PER_USER} file requests`,
        );
      }
      const inserted = await repo.insert({
        id: body.requestId,
        ownerId: user.id,
        ownerKeyId,
        authKeyHash: body.authKeyHash,
        expiresAt,
        maxFiles: body.maxFiles,
        maxBytes: body.maxBytes,
        message: body.message,
        signedInOnly: body.signedInOnly,
        at: now,
      });
      if (!inserted)
        throw new ApiError(409, ErrorCode.INVALID_OPERATION, 'This request id is taken: make a new one');
      return { linkId: body.requestId };
    },

    async list(user: CurrentUser): Promise<OwnerRequest[]> {
      const now = at();
      return (await repo.listOwned(user.id)).map((request) => ownerView(request, now));
    },

    async update(user: CurrentUser, requestId: string, body: UpdateRequestRequest): Promise<OwnerRequest> {
      const now = at();
      const expiresAt = body.expiresAt === undefined ? undefined : iso(body.expiresAt);
      if (expiresAt !== undefined && expiresAt !== null && expiresAt <= now) {
        throw new ValidationError('expiresAt must be in the future');
      }
      const set = {
        ...(expiresAt === undefined ? {} : { expires_at: expiresAt }),
        ...(body.closed === true ? { closed_at: now } : {}),
      };
      if (!(await repo.update(user.id, requestId, set, now))) throw requestNotFound();
      const request = (await repo.listOwned(user.id)).find((row) => row.id === requestId);
      if (request === undefined) throw requestNotFound();
      return ownerView(request, now);
    },

    async delete(user: CurrentUser, requestId: string): Promise<void> {
      if (!(await repo.delete(user.id, requestId))) throw requestNotFound();
    },

    /** The request as its uploader sees it, for a caller that proved `A`; the one 404 otherwise. */
    async open(requestId: string, caller: LinkCaller): Promise<PublicRequest> {
      const request = await provenRequest(deps, requestId, caller, at());
      const owner = await repo.owner(request.owner_id, request.owner_key_id);
      if (owner === undefined || owner.email === null) throw linkUnavailable();
      const used = await repo.usage(request.owner_id, requestId);
      // Full (files received and in progress): nothing more to take, the one answer.
      if (used.files >= request.max_files || used.bytes >= request.max_bytes) throw linkUnavailable();
      return {
        ownerEmail: owner.email,
        ownerPublicKey: owner.public_key,
        ownerKeyId: request.owner_key_id,
        message: request.message,
        expiresAt: request.expires_at,
        filesLeft: request.max_files - used.files,
        bytesLeft: request.max_bytes - used.bytes,
        signedInOnly: fromDbBool(request.signed_in_only),
      };
    },
  };
}

export type RequestsService = ReturnType<typeof createRequestsService>;
