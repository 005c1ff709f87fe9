import type {
  CompleteMultipartUploadRequest,
  CreateMultipartUploadRequest,
  CreateMultipartUploadResponse,
  DirectUploadMetadata,
  FileListItem,
  UploadPartResponse,
} from '@coffer/contracts';
import { DEFAULT_CONTENT_TYPE, ENCRYPTED_FILE_NAME, ErrorCode } from '@coffer/contracts';
import { EmailNotVerifiedError } from '../../http/current-user.js';
import { ApiError, NotFoundError, ValidationError } from '../../http/errors.js';
import type { UserRow } from '../../infra/db/schema.js';
import { nowIso } from '../../infra/db/values.js';
import type { RateLimiter, RateLimitRule } from '../../infra/rate-limit/rate-limiter.js';
import {
  LinkRateLimitedError,
  linkUnavailable,
  REQUEST_UPLOADS_PER_ADDRESS,
  REQUEST_UPLOADS_PER_LINK,
} from '../links/link-access.js';
import type { LinkCaller } from '../links/links.service.js';
import type { UploadsRepo } from '../uploads/uploads.repo.js';
import type { UploadPartInput, UploadsService, UploadThrough } from '../uploads/uploads.service.js';
import type { CurrentUser } from '../users/users.service.js';
import { provenRequest } from './requests.service.js';
import type { RequestsRepo } from './requests.repo.js';

/** Who calls a request's upload calls: the link proof, the address, and the signed-in person, if any. */
export interface RequestCaller extends LinkCaller {
  /** Set when the call carried a valid bearer token (the request page of a signed-in person). */
  user?: CurrentUser | undefined;
}

export const SIGN_IN_REQUIRED_MESSAGE =
  'This file request takes files from signed-in people only: sign in, then open the link again.';

export const CLEAR_NAME_MESSAGE = `A file request upload sends the file's name and type sealed (sealedMetadata), with the name '${ENCRYPTED_FILE_NAME}' and the type '${DEFAULT_CONTENT_TYPE}'`;

/**
 * What a request's upload may say of its file (issue 30): the name and type only sealed for the owner
 * (`sealedMetadata`), never in clear; no place in the owner's drive and no manifest (only the owner
 * signs those, and a manifest names the file).
 * @throws {ValidationError} anything else.
 */
export function assertSealedRequestUpload(upload: {
  name: string;
  contentType: string;
  manifest?: string | undefined;
  node?: unknown;
  sealedMetadata?: unknown;
}): void {
  if (upload.node !== undefined || upload.manifest !== undefined)
    throw new ValidationError(
      "A file request upload carries no node or manifest: the owner's browser makes them",
    );
  if (
    upload.sealedMetadata === undefined ||
    upload.name !== ENCRYPTED_FILE_NAME ||
    upload.contentType !== DEFAULT_CONTENT_TYPE
  )
    throw new ValidationError(CLEAR_NAME_MESSAGE);
}

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
  async function target(requestId: string, caller: RequestCaller, starting: boolean) {
    const at = nowIso(deps.now());
    const request = await provenRequest(deps, requestId, caller, at);
    let uploaderId: string | null = null;
    if (request.signed_in_only === 1) {
      // The request page of a signed-in person sends their bearer token with the link proof.
      if (caller.user === undefined)
        throw new ApiError(401, ErrorCode.UNAUTHORIZED, SIGN_IN_REQUIRED_MESSAGE);
      if (!caller.user.emailVerified || caller.user.email === null) throw new EmailNotVerifiedError();
      uploaderId = caller.user.id;
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
    const through: UploadThrough = {
      requestId,
      maxFiles: request.max_files,
      maxBytes: request.max_bytes,
      uploaderId,
    };
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
      caller: RequestCaller,
      metadata: DirectUploadMetadata,
      body: AsyncIterable<Uint8Array>,
      afterBody: () => Promise<void>,
    ): Promise<FileListItem> {
      assertSealedRequestUpload(metadata);
      const { owner, through } = await target(requestId, caller, true);
      return deps.uploads.direct(owner, metadata, body, afterBody, through);
    },

    async createMultipart(
      requestId: string,
      caller: RequestCaller,
      body: CreateMultipartUploadRequest,
    ): Promise<CreateMultipartUploadResponse> {
      assertSealedRequestUpload(body);
      const { owner, through } = await target(requestId, caller, true);
      return deps.uploads.createMultipart(owner, body, through);
    },

    async uploadPart(
      requestId: string,
      caller: RequestCaller,
      input: UploadPartInput,
    ): Promise<UploadPartResponse> {
      const { owner } = await target(requestId, caller, false);
      await ownUpload(owner, requestId, input.uploadId);
      return deps.uploads.uploadPart(owner, input);
    },

    async completeMultipart(
      requestId: string,
      caller: RequestCaller,
      uploadId: string,
      body: CompleteMultipartUploadRequest,
    ): Promise<FileListItem> {
      const { owner } = await target(requestId, caller, false);
      await ownUpload(owner, requestId, uploadId);
      return deps.uploads.completeMultipart(owner, uploadId, body);
    },

    /** The uploader cancels: the upload is aborted and no longer counts against the request. */
    async abortMultipart(requestId: string, caller: RequestCaller, uploadId: string): Promise<void> {
      const { owner } = await target(requestId, caller, false);
      await ownUpload(owner, requestId, uploadId);
      await deps.uploads.abortMultipart(owner, uploadId);
    },
  };
}

export type RequestUploadsService = ReturnType<typeof createRequestUploadsService>;
