/**
 * Which (file, contact) pairs a share would create (spec section 5, Sharing): only contacts with a
 * public key can be picked, a contact that already has every chosen file cannot be re-selected, and a
 * pair that exists already is skipped. Nothing new at all means 'No new files to share'.
 */

/** A contact as sharing needs it; `publicKey` (base64 SPKI) and `keyId` are null when unverified. */
export interface ShareContact {
  readonly email: string;
  readonly name: string;
  readonly publicKey: string | null;
  readonly keyId: string | null;
}

/** A file as sharing needs it. */
export interface ShareFile {
  readonly id: string;
  readonly title: string;
  readonly isEncrypted: boolean;
}

/** For each file id, the (lower-case) emails it is shared with. A file missing here has no shares known. */
export type ExistingShares = ReadonlyMap<string, ReadonlySet<string>>;

/** Emails compare case-insensitively (the server stores them lower-case). */
export function emailKey(email: string): string {
  return email.trim().toLowerCase();
}

/** Builds {@link ExistingShares} from the share lists of some files. */
export function existingSharesOf(
  lists: Iterable<readonly [fileId: string, shares: readonly { email: string }[]]>,
): ExistingShares {
  const map = new Map<string, ReadonlySet<string>>();
  for (const [fileId, shares] of lists) map.set(fileId, new Set(shares.map((s) => emailKey(s.email))));
  return map;
}

export function isShared(existing: ExistingShares, fileId: string, email: string): boolean {
  return existing.get(fileId)?.has(emailKey(email)) ?? false;
}

export function isVerified(contact: ShareContact): boolean {
  return (
    contact.publicKey !== null && contact.publicKey !== '' && contact.keyId !== null && contact.keyId !== ''
  );
}

/** Why a contact can or cannot be picked. */
export type ContactAvailability = 'selectable' | 'unverified' | 'already-shared';

/**
 * A contact is selectable when verified and at least one chosen file is not yet shared with them. With
 * no file chosen, every verified contact is selectable.
 */
export function contactAvailability(
  contact: ShareContact,
  fileIds: readonly string[],
  existing: ExistingShares,
): ContactAvailability {
  if (!isVerified(contact)) return 'unverified';
  if (fileIds.length > 0 && fileIds.every((id) => isShared(existing, id, contact.email))) {
    return 'already-shared';
  }
  return 'selectable';
}

/** Why a file can or cannot be picked. */
export type FileAvailability = 'selectable' | 'unencrypted' | 'already-shared';

/** A file is selectable when encrypted and not yet shared with every chosen contact. */
export function fileAvailability(
  file: ShareFile,
  contactEmails: readonly string[],
  existing: ExistingShares,
): FileAvailability {
  if (!file.isEncrypted) return 'unencrypted';
  if (contactEmails.length > 0 && contactEmails.every((email) => isShared(existing, file.id, email))) {
    return 'already-shared';
  }
  return 'selectable';
}

/** The Share button is enabled only with at least one contact and one file chosen. */
export function canShare(contacts: readonly ShareContact[], files: readonly ShareFile[]): boolean {
  return contacts.length > 0 && files.length > 0;
}

/** One contact's part of a share: the chosen files they do not have yet. */
export interface ShareStep {
  readonly contact: ShareContact;
  readonly files: readonly ShareFile[];
}

export interface SharePlan {
  /** One step per contact with something new, in the order the contacts were chosen. */
  readonly steps: readonly ShareStep[];
  /** The number of (file, contact) pairs to create. */
  readonly pairCount: number;
}

/**
 * The new pairs of the chosen contacts and files, grouped by contact (the run shares with one contact
 * at a time). Pairs that exist already are left out; duplicates in the choice are ignored.
 */
export function planShares(
  contacts: readonly ShareContact[],
  files: readonly ShareFile[],
  existing: ExistingShares,
): SharePlan {
  const seenContacts = new Set<string>();
  const uniqueFiles = [...new Map(files.map((file) => [file.id, file])).values()];
  const steps: ShareStep[] = [];
  for (const contact of contacts) {
    const key = emailKey(contact.email);
    if (seenContacts.has(key)) continue;
    seenContacts.add(key);
    const fresh = uniqueFiles.filter((file) => !isShared(existing, file.id, contact.email));
    if (fresh.length > 0) steps.push({ contact, files: fresh });
  }
  return { steps, pairCount: steps.reduce((sum, step) => sum + step.files.length, 0) };
}
