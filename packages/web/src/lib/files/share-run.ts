import {
  ErrorCode,
  SHARE_DELAY_MS,
  shareErrorMessage,
  shareMessages,
  shareOperationErrorMessage,
  type ShareFileRequest,
  type ShareFilesItem,
} from '@coffer/contracts';
import { FileKeyUnwrapError, importPublicKeyB64, rewrapFileKey } from '@coffer/crypto';
import { ApiRequestError } from '../api/http';
import { isVerified, type ShareContact, type ShareFile, type SharePlan, type ShareStep } from './share-plan';

/** A share that cannot start (spec section 5): the message is the user-facing text. */
export class SharePreconditionError extends Error {
  readonly code = 'SHARE_PRECONDITION';
  constructor(message: string) {
    super(message);
    this.name = 'SharePreconditionError';
  }
}

/** Codes only the single-share mapping of spec section 8 knows. */
const shareOnlyCodes = new Set<string>([ErrorCode.SHARE_FAILED, ErrorCode.INVALID_OPERATION]);
/** Codes only the share-operation mapping knows. */
const operationOnlyCodes = new Set<string>([
  ErrorCode.SHARE_LIMIT_REACHED,
  ErrorCode.INVALID_RECIPIENT,
  ErrorCode.ALREADY_SHARED,
]);

/**
 * The text for a failed share. A server answer goes through the mapping that knows its code: sharing
 * one file with one contact (`shareErrorMessage`) or an operation over several (`shareOperationErrorMessage`);
 * a code both or neither know follows `several`. A precondition failure keeps its own text.
 */
export function shareFailureMessage(error: unknown, several: boolean): string {
  if (error instanceof SharePreconditionError) return error.message;
  if (error instanceof ApiRequestError) {
    const code = error.code ?? '';
    if (shareOnlyCodes.has(code)) return shareErrorMessage(code);
    if (operationOnlyCodes.has(code)) return shareOperationErrorMessage(code);
    return several ? shareOperationErrorMessage(code) : shareErrorMessage(code);
  }
  // The owner's copy of the file key does not open with the current private key.
  if (error instanceof FileKeyUnwrapError) return shareMessages.failed;
  return several ? shareMessages.shareFilesFailed : shareMessages.defaultError;
}

/** The outside parts of a share run; the real ones use the API client and @coffer/crypto. */
export interface ShareRunDeps {
  /** The owner's unlocked private key; null means it is missing. */
  readonly privateKey: CryptoKey | null;
  /** The owner's `encryptedFileKey` from the file's metadata; null or '' when it has none. */
  readonly ownerFileKey: (fileId: string) => Promise<string | null | undefined>;
  /** Decrypts the owner's copy and encrypts the file key to the recipient's public key (base64 SPKI). */
  readonly rewrap: (
    encryptedFileKeyB64: string,
    privateKey: CryptoKey,
    publicKeyB64: string,
  ) => Promise<string>;
  /**
   * The recipient's key to wrap to, fetched and checked against the pins now (issue 13); throws a
   * {@link SharePreconditionError} saying why when sharing with them is blocked (key changed).
   * Without it, the contact's looked-up key is used as is.
   */
  readonly resolveRecipient?: (contact: ShareContact) => Promise<{ publicKey: string; keyId: string }>;
  /** Adds the owner's signed share grant to the request body (issue 13). */
  readonly sign?: (
    fileId: string,
    body: ShareFileRequest,
    recipientPublicKeyB64: string,
  ) => Promise<ShareFileRequest>;
  /** POST /users/files/{id}/share. */
  readonly post: (fileId: string, body: ShareFileRequest) => Promise<unknown>;
  /**
   * POST /users/shares: several files with one contact in one request (all or none), so the contact
   * gets one mail for them. Without it, each file is posted on its own.
   */
  readonly postBatch?: (email: string, files: readonly ShareFilesItem[]) => Promise<unknown>;
  readonly sleep?: (ms: number) => Promise<void>;
  /** Pause between contacts; default SHARE_DELAY_MS (1 s). */
  readonly delayMs?: number;
}

export type ShareEvent =
  | { readonly type: 'sharing'; readonly contact: ShareContact; readonly file: ShareFile }
  | { readonly type: 'shared'; readonly contact: ShareContact; readonly file: ShareFile }
  | {
      readonly type: 'failed';
      readonly contact: ShareContact;
      readonly file: ShareFile;
      readonly message: string;
      readonly error: unknown;
    };

export interface ShareRunResult {
  readonly shared: readonly { contact: ShareContact; file: ShareFile }[];
  readonly failed: readonly { contact: ShareContact; file: ShareFile; message: string }[];
  /** True when the run stopped early (share limit reached). */
  readonly stopped: boolean;
}

/** The real re-wrap: the owner's copy of the file key, encrypted again to the recipient's public key. */
export async function rewrapForRecipient(
  encryptedFileKeyB64: string,
  privateKey: CryptoKey,
  publicKeyB64: string,
): Promise<string> {
  return rewrapFileKey(encryptedFileKeyB64, privateKey, await importPublicKeyB64(publicKeyB64));
}

const defaultSleep = (ms: number): Promise<void> =>
  new Promise((resolve) => {
    setTimeout(resolve, ms);
  });

/** Checks the spec's share rules for one pair and builds the (signed) request body. */
async function prepareShare(
  deps: ShareRunDeps,
  contact: ShareContact,
  file: ShareFile,
): Promise<ShareFileRequest> {
  if (!file.isEncrypted) throw new SharePreconditionError(shareMessages.unencryptedFile);
  if (!isVerified(contact) || contact.publicKey === null || contact.keyId === null) {
    throw new SharePreconditionError(shareMessages.contactKeyRequired);
  }
  if (deps.privateKey === null) throw new SharePreconditionError(shareMessages.privateKeyRequired);
  const ownerKey = await deps.ownerFileKey(file.id);
  if (ownerKey === null || ownerKey === undefined || ownerKey === '') {
    throw new SharePreconditionError(shareMessages.fileKeyMissing);
  }
  const recipient =
    deps.resolveRecipient === undefined
      ? { publicKey: contact.publicKey, keyId: contact.keyId }
      : await deps.resolveRecipient(contact);
  const encryptedFileKey = await deps.rewrap(ownerKey, deps.privateKey, recipient.publicKey);
  const body: ShareFileRequest = { email: contact.email, encryptedFileKey, keyVersion: recipient.keyId };
  return deps.sign === undefined ? body : deps.sign(file.id, body, recipient.publicKey);
}

/** The body of one file in `POST /users/shares`: the share request without the (shared) email. */
const toBatchItem = ({ file, body }: { file: ShareFile; body: ShareFileRequest }): ShareFilesItem => ({
  fileId: file.id,
  encryptedFileKey: body.encryptedFileKey,
  keyVersion: body.keyVersion,
  ...(body.shareGrant === undefined ? {} : { shareGrant: body.shareGrant }),
});

const isLimitReached = (error: unknown): boolean =>
  error instanceof ApiRequestError && error.code === ErrorCode.SHARE_LIMIT_REACHED;

/**
 * Shares the plan's pairs: one contact at a time, with a pause of SHARE_DELAY_MS between contacts
 * (spec section 4); a contact's files one after another, or in one request when the deps can post a
 * batch (one mail to the contact, issue 15). A failed pair does not stop the others, except
 * when the share limit is reached: then every further pair would fail too.
 */
export async function runSharePlan(
  plan: SharePlan,
  deps: ShareRunDeps,
  onEvent: (event: ShareEvent) => void = () => undefined,
): Promise<ShareRunResult> {
  const sleep = deps.sleep ?? defaultSleep;
  const delayMs = deps.delayMs ?? SHARE_DELAY_MS;
  const several = plan.pairCount > 1;
  const shared: { contact: ShareContact; file: ShareFile }[] = [];
  const failed: { contact: ShareContact; file: ShareFile; message: string }[] = [];
  const fail = (contact: ShareContact, file: ShareFile, error: unknown) => {
    const message = shareFailureMessage(error, several);
    failed.push({ contact, file, message });
    onEvent({ type: 'failed', contact, file, message, error });
  };
  const succeed = (contact: ShareContact, file: ShareFile) => {
    shared.push({ contact, file });
    onEvent({ type: 'shared', contact, file });
  };
  /** Each file through the spec's call; true when the share limit stopped the run. */
  const oneByOne = async ({ contact, files }: ShareStep): Promise<boolean> => {
    for (const file of files) {
      onEvent({ type: 'sharing', contact, file });
      try {
        await deps.post(file.id, await prepareShare(deps, contact, file));
        succeed(contact, file);
      } catch (error) {
        fail(contact, file, error);
        // Every further pair would be refused too.
        if (isLimitReached(error)) return true;
      }
    }
    return false;
  };
  /** All the contact's files in one request, so they get one mail; all or none on the server. */
  const inOneRequest = async (
    { contact, files }: ShareStep,
    postBatch: NonNullable<ShareRunDeps['postBatch']>,
  ): Promise<boolean> => {
    const ready: { file: ShareFile; body: ShareFileRequest }[] = [];
    for (const file of files) {
      onEvent({ type: 'sharing', contact, file });
      try {
        ready.push({ file, body: await prepareShare(deps, contact, file) });
      } catch (error) {
        fail(contact, file, error);
      }
    }
    const [first, ...more] = ready;
    if (first === undefined) return false;
    try {
      // One file left: the spec's call.
      if (more.length === 0) await deps.post(first.file.id, first.body);
      else await postBatch(contact.email, ready.map(toBatchItem));
      for (const { file } of ready) succeed(contact, file);
      return false;
    } catch (error) {
      for (const { file } of ready) fail(contact, file, error);
      return isLimitReached(error);
    }
  };
  for (const [index, step] of plan.steps.entries()) {
    if (index > 0) await sleep(delayMs);
    const stopped =
      deps.postBatch !== undefined && step.files.length > 1
        ? await inOneRequest(step, deps.postBatch)
        : await oneByOne(step);
    if (stopped) return { shared, failed, stopped: true };
  }
  return { shared, failed, stopped: false };
}
