import type { NewEncryptionInfo } from '@coffer/contracts';
import { ErrorCode, MONTHLY_UPLOAD_LIMIT_SERVER_MESSAGE } from '@coffer/contracts';
import type { PlanLimits, Tier } from '../../config.js';
import { ApiError, ValidationError } from '../../http/errors.js';
import type { KeysRepo } from '../keys/keys.repo.js';
import { BYTES_PER_GB, limitsFor, periodStart } from '../users/plans.js';
import type { UsageRepo } from '../users/usage.repo.js';
import type { CurrentUser } from '../users/users.service.js';
import type { UploadsRepo } from './uploads.repo.js';

export const STORAGE_QUOTA_MESSAGE = 'Storage quota exceeded';
export const TOO_MANY_UPLOADS_MESSAGE = 'Too many uploads in progress';

/** The rules every new upload must pass before any byte is stored. */
export interface UploadPolicy {
  /**
   * Throws the API error for the first rule `user` breaks by starting an upload of `storedSize`
   * ciphertext bytes wrapped with `encryptionInfo`: an unknown key, the monthly upload count, the
   * storage quota (files plus pending uploads), and, for multipart uploads, the number in progress.
   */
  assertCanStart(
    user: CurrentUser,
    upload: { storedSize: number; encryptionInfo: NewEncryptionInfo; multipart: boolean },
  ): Promise<void>;
}

export interface UploadPolicyDeps {
  uploads: UploadsRepo;
  keys: KeysRepo;
  usage: UsageRepo;
  plans: Record<Tier, PlanLimits>;
  now: () => Date;
}

export function createUploadPolicy(deps: UploadPolicyDeps): UploadPolicy {
  return {
    async assertCanStart(user, upload) {
      if ((await deps.keys.findFor(user.id, upload.encryptionInfo.version)) === undefined) {
        throw new ValidationError('encryptionInfo.version must be the id of one of your keys');
      }
      const now = deps.now();
      const { limits } = limitsFor(user.row, deps.plans, now);
      const uploads = await deps.usage.transfersSince(user.id, 'upload', periodStart(user.row, now));
      if (uploads >= limits.monthlyUploadLimit) {
        throw new ApiError(403, ErrorCode.UPLOAD_FAILED, MONTHLY_UPLOAD_LIMIT_SERVER_MESSAGE);
      }
      const [stored, reserved] = await Promise.all([
        deps.usage.storageUsed(user.id),
        deps.uploads.pendingStoredBytes(user.id),
      ]);
      if (stored + reserved + upload.storedSize > limits.storageLimit * BYTES_PER_GB) {
        throw new ApiError(403, ErrorCode.QUOTA_EXCEEDED, STORAGE_QUOTA_MESSAGE);
      }
      if (
        upload.multipart &&
        (await deps.uploads.pendingMultipartCount(user.id)) >= limits.maxConcurrentUploads
      ) {
        throw new ApiError(429, ErrorCode.UPLOAD_FAILED, TOO_MANY_UPLOADS_MESSAGE);
      }
    },
  };
}
