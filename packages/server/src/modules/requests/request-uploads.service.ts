import type {
  CompleteMultipartUploadRequest,
  CreateMultipartUploadRequest,
  CreateMultipartUploadResponse,
  DirectUploadMetadata,
  FileListItem,
  UploadPartResponse,
} from '@coffer/contracts';
import { ErrorCode } from '@coffer/contracts';
import { ApiError, NotFoundError } from '../../http/errors.js';
import type { UserRow } from '../../infra/db/schema.js';
import { nowIso } from '../../infra/db/values.js';
import type { RateLimiter, RateLimitRule } from '../../infra/rate-limit/rate-limiter.js';
import {
  checkLinkAuth,
  LinkRateLimitedError,
  linkUnavailable,
  REQUEST_UPLOADS_PER_ADDRESS,
  REQUEST_UPLOADS_PER_LINK,
} from '../links/link-access.js';
import type { LinkCaller } from '../links/links.service.js';
import type { UploadsRepo } from '../uploads/uploads.repo.js';
import type { UploadPartInput, UploadsService, UploadThrough } from '../uploads/uploads.service.js';
import type { CurrentUser } from '../users/users.service.js';
import { requestState } from './requests.service.js';
import type { RequestsRepo } from './requests.repo.js';

export interface RequestUploadsDeps {
  repo: RequestsRepo;
  uploads: UploadsService;
  uploadsRepo: Pick<UploadsRepo, 'findFor'>;
  users: { findById(id: string): Promise<UserRow | undefined> };
  limiter: RateLimiter;
  now: () => Date;
}

/**
 * Uploads through a file request (issue 30): the uploader proves `A`, and the upload is the owner's,
 * as if the owner had started it (their plan, quota and key), marked with the request, and counted
 * against the request's files and bytes in the same locked step as the owner's quota. Starting an
 * upload is rate-limited per request and per client address; an aborted or failed one stops counting.
 */
export function createRequestUploadsService(deps: RequestUploadsDeps) {
  async function target(requestId: string, caller: LinkCaller, starting: boolean) {
    const request = await deps.repo.findPublic(requestId);
    const at = nowIso(deps.now());
    if (request === undefined || requestState(request, at) !== 'active') throw linkUnavailable();
    await checkLinkAuth({
      limiter: deps.limiter,
      linkId: requestId,
      address: caller.address,
      header: caller.authHeader,
      storedHash: request.auth_key_hash,
    });
    if (request.signed_in_only === 1) {
      // The public calls carry no sign-in: fail closed until signed-in uploads exist.
      throw new ApiError(403, ErrorCode.FORBIDDEN, 'This request takes files from signed-in people only');
    }
    if (starting) {
      const rules: [RateLimitRule, string][] = [
        [REQUEST_UPLOADS_PER_LINK, requestId],
        [REQUEST_UPLOADS_PER_ADDRESS, caller.address],
      ];
      for (const [rule, subject] of rules) {
        const decision = await deps.limiter.consume(rule, subject);
        if (!decision.allowed) throw new LinkRateLimitedError(decision.retryAfterSec);
      }
    }
    const row = await deps.users.findById(request.owner_id);
    if (row === undefined) throw linkUnavailable();
    const owner: CurrentUser = {
      id: row.id,
      email: row.email,
      name: row.name,
      isAdmin: false,
      row,
      emailVerified: row.email !== null,
      claimedEmail: row.email,
    };
    const through: UploadThrough = { requestId, maxFiles: request.max_files, maxBytes: request.max_bytes };
    await deps.repo.touch(requestId, at);
    return { owner, through };
  }

  /** The owner's upload that came through this request; anything else is not found. */
  async function ownUpload(owner: CurrentUser, requestId: string, uploadId: string): Promise<void> {
    const upload = await deps.uploadsRepo.findFor(owner.id, uploadId);
    if (upload?.request_id !== requestId) throw new NotFoundError('Upload not found');
  }

  return {
    async direct(
      requestId: string,
      caller: LinkCaller,
      metadata: DirectUploadMetadata,
      body: AsyncIterable<Uint8Array>,
      afterBody: () => Promise<void>,
    ): Promise<FileListItem> {
      const { owner, through } = await target(requestId, caller, true);
      return deps.uploads.direct(owner, metadata, body, afterBody, through);
    },

    async createMultipart(
      requestId: string,
      caller: LinkCaller,
      body: CreateMultipartUploadRequest,
    ): Promise<CreateMultipartUploadResponse> {
      const { owner, through } = await target(requestId, caller, true);
      return deps.uploads.createMultipart(owner, body, through);
    },

    async uploadPart(
      requestId: string,
      caller: LinkCaller,
      input: UploadPartInput,
    ): Promise<UploadPartResponse> {
      const { owner } = await target(requestId, caller, false);
      await ownUpload(owner, requestId, input.uploadId);
      return deps.uploads.uploadPart(owner, input);
    },

    async completeMultipart(
      requestId: string,
      caller: LinkCaller,
      uploadId: string,
      body: CompleteMultipartUploadRequest,
    ): Promise<FileListItem> {
      const { owner } = await target(requestId, caller, false);
      await ownUpload(owner, requestId, uploadId);
      return deps.uploads.completeMultipart(owner, uploadId, body);
    },

    /** The uploader cancels: the upload is aborted and no longer counts against the request. */
    async abortMultipart(requestId: string, caller: LinkCaller, uploadId: string): Promise<void> {
      const { owner } = await target(requestId, caller, false);
      await ownUpload(owner, requestId, uploadId);
      await deps.uploads.abortMultipart(owner, uploadId);
    },
  };
}

export type RequestUploadsService = ReturnType<typeof createRequestUploadsService>;
