import type { FairLane } from '../../http/fair-lane.js';
import { listLane } from '../../http/fair-lane.js';
import { listAnswer } from '../../http/list-answer.js';
import type { Page } from '../../http/page-cursor.js';
import type {
  FileShare,
  ShareFileRequest,
  ShareFilesItem,
  ShareFilesRequest,
  SharedFileItem,
  SharedFileMetadata,
} from '@coffer/contracts';
import { ErrorCode, NAME_MAX_LENGTH } from '@coffer/contracts';
import { ApiError, NotFoundError } from '../../http/errors.js';
import { isUniqueViolation } from '../../infra/db/errors.js';
import { fromDbBool, normalizeEmail, nowIso } from '../../infra/db/values.js';
import { shareNotificationMail } from '../../infra/mail/mail-templates.js';
import type { Mailer } from '../../infra/mail/mailer.js';
import { MailDeliveryError } from '../../infra/mail/mailer.js';
import type { Download, DownloadsService } from '../files/downloads.service.js';
import { fileNotFound } from '../files/downloads.service.js';
import { parseEncryptionInfo, toFileMetadata } from '../files/file-views.js';
import type { FilesRepo } from '../files/files.repo.js';
import type { KeysRepo } from '../keys/keys.repo.js';
import type { UsersRepo } from '../users/users.repo.js';
import type { CurrentUser } from '../users/users.service.js';
import type { ReceivedListEntry, ReceivedShare, SharesRepo } from './shares.repo.js';

export const SHARE_LIMIT_MESSAGE = 'You have reached the maximum number of shares';

export interface SharesLogger {
  warn(obj: object, msg: string): void;
}

export interface SharesService {
  share(user: CurrentUser, fileId: string, body: ShareFileRequest): Promise<void>;
  /** Several files with one person in one action: all or none, and one notification mail. */
  shareFiles(user: CurrentUser, body: ShareFilesRequest): Promise<void>;
  recipients(userId: string, fileId: string): Promise<FileShare[]>;
  revoke(userId: string, fileId: string, email: string): Promise<void>;
  /**
   * Files shared with the user, newest share first: one page (and the next one's cursor), or all, as the
   * JSON answer of `GET /users/files/shared`, read and encoded a batch at a time in the list lane.
   */
  received(userId: string, page?: Page, abandoned?: () => boolean): Promise<Buffer>;
  receivedFile(userId: string, fileId: string): Promise<SharedFileMetadata>;
  download(user: CurrentUser, fileId: string, rangeHeader: string | undefined): Promise<Download>;
}

export interface SharesServiceDeps {
  repo: SharesRepo;
  files: FilesRepo;
  users: UsersRepo;
  keys: KeysRepo;
  downloads: DownloadsService;
  maxSharesOf: (user: CurrentUser) => number;
  mailer: Mailer;
  appUrl: string;
  logger: SharesLogger;
  now: () => Date;
  /** Where list batches wait their turn; default: the lane all list routes share. */
  lane?: FairLane;
}

const invalidRecipient = (message: string) => new ApiError(400, ErrorCode.INVALID_RECIPIENT, message);
const alreadyShared = () =>
  new ApiError(409, ErrorCode.ALREADY_SHARED, 'This file is already shared with this person');

/**
 * Sharing a file is giving a recipient their own wrapped copy of the file key. Only the owner manages
 * shares; a recipient sees a shared file only while the share exists, so a revoke or a delete takes
 * effect on their next request.
 */
export function createSharesService(deps: SharesServiceDeps): SharesService {
  const { repo } = deps;

  const ownFile = async (userId: string, fileId: string) => {
    const row = await deps.files.findFor(userId, fileId);
    if (row === undefined) throw fileNotFound();
    return row;
  };
  const shareableFile = async (userId: string, fileId: string) => {
    const file = await ownFile(userId, fileId);
    if (!fromDbBool(file.is_encrypted)) {
      throw new ApiError(400, ErrorCode.INVALID_OPERATION, 'Only encrypted files can be shared');
    }
    return file;
  };
  const receivedFile = async (userId: string, fileId: string): Promise<ReceivedShare> => {
    const share = await repo.receivedFile(userId, fileId);
    if (share === undefined) throw fileNotFound();
    return share;
  };

  /** Shares `items` with the person at `email`: all or none, then one notification mail for all. */
  const shareFiles = async (
    user: CurrentUser,
    rawEmail: string,
    items: readonly ShareFilesItem[],
  ): Promise<void> => {
    if (new Set(items.map((item) => item.fileId)).size !== items.length) {
      throw new ApiError(400, ErrorCode.VALIDATION_FAILED, 'Each file may appear only once in a share');
    }
    const files = [];
    for (const item of items) files.push(await shareableFile(user.id, item.fileId));
    if (user.email === null) {
      throw new ApiError(
        400,
        ErrorCode.INVALID_OPERATION,
        'Your account needs an email address to share files',
      );
    }
    const email = normalizeEmail(rawEmail);
    const recipient = email === user.email ? undefined : await deps.users.findByEmail(email);
    if (recipient === undefined || recipient.id === user.id || recipient.email === null) {
      throw invalidRecipient('The recipient must be another Coffer user');
    }
    const recipientEmail = recipient.email;
    const activeKey = await deps.keys.newestFor(recipient.id);
    if (items.some((item) => item.keyVersion !== activeKey?.id)) {
      throw invalidRecipient("The file key must be wrapped with the recipient's current public key");
    }
    for (const file of files) {
      if ((await repo.find(file.id, recipient.id)) !== undefined) throw alreadyShared();
    }
    const createdAt = nowIso(deps.now());
    const rows = items.map((item) => ({
      file_id: item.fileId,
      owner_id: user.id,
      recipient_id: recipient.id,
      recipient_email: recipientEmail,
      encrypted_file_key: item.encryptedFileKey,
      key_version: item.keyVersion,
      created_at: createdAt,
      // Stored as sent: the recipient's app verifies it against the owner's pinned key.
      share_grant: item.shareGrant ?? null,
    }));
    let inserted: boolean;
    try {
      inserted = await repo.insertWithinLimit(rows, deps.maxSharesOf(user));
    } catch (err) {
      if (isUniqueViolation(err)) throw alreadyShared();
      throw err;
    }
    if (!inserted) throw new ApiError(403, ErrorCode.SHARE_LIMIT_REACHED, SHARE_LIMIT_MESSAGE);
    // The shares stand whether or not the mail goes out: the files are in the recipient's list anyway.
    // One mail per share action, however many files it holds (issue 15).
    const message = shareNotificationMail({
      ownerName: user.name ?? user.email,
      ownerEmail: user.email,
      to: recipientEmail,
      fileIds: items.map((item) => item.fileId),
      appUrl: deps.appUrl,
    });
    await deps.mailer.send(message).catch((err: unknown) => {
      const reason = err instanceof MailDeliveryError ? err.reason : 'failed';
      deps.logger.warn(
        { reason, userId: user.id, fileCount: items.length },
        'share notification mail not delivered',
      );
    });
  };

  return {
    share(user, fileId, { email, ...item }) {
      return shareFiles(user, email, [{ fileId, ...item }]);
    },

    shareFiles(user, body) {
      return shareFiles(user, body.email, body.files);
    },

    async recipients(userId, fileId) {
      await ownFile(userId, fileId);
      return (await repo.recipientsOf(userId, fileId)).map((r) => ({
        email: r.email,
        name: (r.contactName ?? r.accountName ?? r.email).slice(0, NAME_MAX_LENGTH),
      }));
    },

    async revoke(userId, fileId, email) {
      await ownFile(userId, fileId);
      if (!(await repo.deleteFor(userId, fileId, normalizeEmail(email)))) {
        throw new NotFoundError('This file is not shared with this email');
      }
    },

    received(userId, page, abandoned) {
      const toItem = ({ file, ownerEmail }: ReceivedListEntry): SharedFileItem => ({
        fileId: file.id,
        owner: ownerEmail ?? '',
        file: {
          name: file.name,
          contentType: file.content_type,
          size: file.size,
          uploadedAt: file.uploaded_at,
          isEncrypted: fromDbBool(file.is_encrypted),
        },
      });
      return listAnswer({
        lane: deps.lane ?? listLane,
        user: userId,
        page,
        read: (limit, after) => repo.receivedBy(userId, { limit, after }),
        positionOf: (entry) => ({ at: entry.sharedAt, id: entry.file.id }),
        toItem,
        withCount: false,
        ...(abandoned === undefined ? {} : { abandoned }),
      });
    },

    async receivedFile(userId, fileId) {
      const share = await receivedFile(userId, fileId);
      const ownerInfo = parseEncryptionInfo(share.file.encryption_info);
      // The recipient's copy of the key replaces the owner's; nothing of the owner's key is sent.
      const encryptionInfo =
        ownerInfo === null
          ? null
          : { ...ownerInfo, version: share.keyVersion, encryptedFileKey: share.encryptedFileKey };
      return {
        file: toFileMetadata(share.file, encryptionInfo),
        owner: share.ownerEmail ?? '',
        encryptedFileKey: share.encryptedFileKey,
        ...(share.shareGrant === null ? {} : { shareGrant: share.shareGrant }),
      };
    },

    async download(user, fileId, rangeHeader) {
      const share = await receivedFile(user.id, fileId);
      return deps.downloads.open(
        user,
        share.file,
        rangeHeader,
        async () => (await repo.receivedFile(user.id, fileId)) !== undefined,
      );
    },
  };
}
