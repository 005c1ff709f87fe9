import type { NewEncryptionInfo } from '@coffer/contracts';
import { ErrorCode, MONTHLY_UPLOAD_LIMIT_SERVER_MESSAGE } from '@coffer/contracts';
import type { PlanLimits, Tier } from '../../config.js';
import { ApiError, ValidationError } from '../../http/errors.js';
import type { NewUploadRow, UploadRow } from '../../infra/db/schema.js';
import { nowIso } from '../../infra/db/values.js';
import type { KeysRepo } from '../keys/keys.repo.js';
import { BYTES_PER_GB, limitsFor, periodStart } from '../users/plans.js';
import type { CurrentUser } from '../users/users.service.js';
import type { UploadsRepo, UploadUsage } from './uploads.repo.js';

export const STORAGE_QUOTA_MESSAGE = 'Storage quota exceeded';
export const TOO_MANY_UPLOADS_MESSAGE = 'Too many uploads in progress';

/** The rules every new upload must pass before any byte is stored. */
export interface UploadPolicy {
  /**
   * Records `row` (a new pending upload of `user`) if starting it breaks no rule, else throws the API
   * error for the first rule broken: an unknown key, the monthly upload count, the storage quota (files
   * plus pending uploads), and, for multipart uploads, the number in progress. The check and the insert
   * are one step (see {@link UploadsRepo.reserve}), so concurrent starts cannot overshoot a limit.
   */
  reserve(
    user: CurrentUser,
    row: NewUploadRow,
    encryptionInfo: NewEncryptionInfo,
    request?: RequestLimits,
  ): Promise<UploadRow>;
}

/** A file request's limits (issue 30): an upload through it (`row.request_id`) must stay within them. */
export interface RequestLimits {
  maxFiles: number;
  maxBytes: number;
}

export const REQUEST_FULL_MESSAGE = 'This file request takes no more files';

export interface UploadPolicyDeps {
  uploads: UploadsRepo;
  keys: KeysRepo;
  plans: Record<Tier, PlanLimits>;
  /** `UPLOAD_IDLE_MINUTES`: a multipart upload without a part for this long stops counting as in progress. */
  idleMinutes: number;
  now: () => Date;
}

export function createUploadPolicy(deps: UploadPolicyDeps): UploadPolicy {
  return {
    async reserve(user, row, encryptionInfo, request) {
      // Keys are never taken back by a concurrent upload start, so this check needs no lock.
      if ((await deps.keys.findFor(user.id, encryptionInfo.version)) === undefined) {
        throw new ValidationError('encryptionInfo.version must be the id of one of your keys');
      }
      const now = deps.now();
      const { limits } = limitsFor(user.row, deps.plans, now);
      const window = {
        periodStart: nowIso(periodStart(user.row, now)),
        activeSince: nowIso(new Date(now.getTime() - deps.idleMinutes * 60_000)),
      };
      return deps.uploads.reserve(row, window, (usage: UploadUsage) => {
        if (usage.monthlyUploads >= limits.monthlyUploadLimit) {
          throw new ApiError(403, ErrorCode.UPLOAD_FAILED, MONTHLY_UPLOAD_LIMIT_SERVER_MESSAGE);
        }
        if (usage.storedBytes + row.stored_size > limits.storageLimit * BYTES_PER_GB) {
          throw new ApiError(403, ErrorCode.QUOTA_EXCEEDED, STORAGE_QUOTA_MESSAGE);
        }
        if (row.kind === 'multipart' && usage.activeMultipart >= limits.maxConcurrentUploads) {
          throw new ApiError(429, ErrorCode.UPLOAD_FAILED, TOO_MANY_UPLOADS_MESSAGE);
        }
        if (
          request !== undefined &&
          (usage.request === undefined ||
            usage.request.files + 1 > request.maxFiles ||
            usage.request.bytes + row.size > request.maxBytes)
        ) {
          throw new ApiError(403, ErrorCode.QUOTA_EXCEEDED, REQUEST_FULL_MESSAGE);
        }
      });
    },
  };
}
