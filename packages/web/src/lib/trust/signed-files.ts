import {
  signFileManifest,
  signShareGrant,
  verifyFileManifest,
  verifyReceivedShare,
  type SignatureCheck,
} from '@coffer/crypto';
import type {
  FileMetadata,
  NewEncryptionInfo,
  SharedFileMetadata,
  ShareFileRequest,
} from '@coffer/contracts';

/** The signed-in user, as far as signatures are concerned. */
export interface Me {
  email: string;
  /** Active key record's id and public key (checked at unlock). */
  keyId: string;
  publicKeyB64: string;
}

/** The manifest to send with a new upload (`manifest` of the multipart or direct upload call). */
export async function signUploadManifest(
  upload: { name: string; contentType: string; size: number; encryptionInfo: NewEncryptionInfo },
  ownerEmail: string,
  signingPrivateKey: CryptoKey,
): Promise<string> {
  return signFileManifest(
    {
      ownerEmail,
      ownerKeyId: upload.encryptionInfo.version,
      ownerEncryptedFileKeyB64: upload.encryptionInfo.encryptedFileKey,
      name: upload.name,
      contentType: upload.contentType,
      size: upload.size,
      chunkSize: upload.encryptionInfo.chunkSize,
    },
    signingPrivateKey,
  );
}

/**
 * The share call's body with the owner's share grant. `recipientPublicKeyB64` must be the key the
 * file key was just wrapped to, after the recipient's pin was checked.
 */
export async function signedShareRequest(
  share: {
    fileId: string;
    file: FileMetadata;
    recipientEmail: string;
    recipientKeyId: string;
    recipientPublicKeyB64: string;
    encryptedFileKeyB64: string;
  },
  ownerEmail: string,
  signingPrivateKey: CryptoKey,
): Promise<ShareFileRequest> {
  const shareGrant = await signShareGrant(
    {
      fileId: share.fileId,
      ownerEmail,
      recipientEmail: share.recipientEmail,
      recipientKeyId: share.recipientKeyId,
      recipientPublicKeyB64: share.recipientPublicKeyB64,
      encryptedFileKeyB64: share.encryptedFileKeyB64,
      manifestJson: share.file.manifest,
    },
    signingPrivateKey,
  );
  return {
    email: share.recipientEmail,
    encryptedFileKey: share.encryptedFileKeyB64,
    keyVersion: share.recipientKeyId,
    shareGrant,
  };
}

/**
 * Checks one of my files (My Files) against my own signing key. Without one (adding it at unlock
 * failed), a file without manifest is `unsigned`, as it honestly is, and a manifest cannot be mine.
 */
export async function checkOwnFile(
  file: FileMetadata,
  ownerEmail: string,
  ownSigningPublicKeyB64: string | undefined,
): Promise<SignatureCheck> {
  if (ownSigningPublicKeyB64 === undefined) {
    return file.manifest === undefined
      ? { status: 'unsigned' }
      : { status: 'invalid-signature', reason: 'you have no signing key' };
  }
  return verifyFileManifest(
    file.manifest,
    {
      ownerEmail,
      name: file.name,
      contentType: file.contentType,
      size: file.size,
      chunkSize: file.encryptionInfo?.chunkSize,
      ownerKeyId: file.encryptionInfo?.version,
      ownerEncryptedFileKeyB64: file.encryptionInfo?.encryptedFileKey,
    },
    ownSigningPublicKeyB64,
  );
}

/**
 * Checks a file shared with me before offering it: the owner's grant and manifest against what the
 * server serves, with the owner's signing key as `assessServedKey` returned it (pinned or just
 * pinned). My own email, key id and public key come from my session, never from the share.
 */
export async function checkSharedFile(
  fileId: string,
  shared: SharedFileMetadata,
  me: Me,
  ownerSigningPublicKeyB64: string,
): Promise<SignatureCheck> {
  return verifyReceivedShare(
    {
      fileId,
      ownerEmail: shared.owner,
      recipientEmail: me.email,
      recipientKeyId: me.keyId,
      recipientPublicKeyB64: me.publicKeyB64,
      encryptedFileKeyB64: shared.encryptedFileKey,
      manifestJson: shared.file.manifest,
      shareGrantJson: shared.shareGrant,
      file: {
        name: shared.file.name,
        contentType: shared.file.contentType,
        size: shared.file.size,
        chunkSize: shared.file.encryptionInfo?.chunkSize,
      },
    },
    ownerSigningPublicKeyB64,
  );
}

/** How a screen shows a signature check. */
export interface SignatureBadge {
  /** `stale`: signed for a key of mine I have since replaced (an encryption reset); refused, not forged. */
  tone: 'verified' | 'unsigned' | 'danger' | 'stale';
  text: string;
  /** False when the file must not be offered for download. */
  canOpen: boolean;
  /**
   * True for unsigned items: they keep working (files and shares from before signatures), but a
   * server can also strip a signature or inject an unsigned share, so ask before opening.
   */
  askFirst: boolean;
}

const FIELD_WORDS: Record<string, string> = {
  name: 'name',
  contentType: 'type',
  size: 'size',
  chunkSize: 'layout',
  chunkCount: 'layout',
  storedSize: 'size',
  ownerEmail: 'owner',
  ownerKeyId: 'key',
  ownerWrappedKeySha256Hex: 'key',
  fileId: 'file',
  recipientEmail: 'recipient',
  recipientKeyId: 'recipient key',
  recipientKeySha256Hex: 'recipient key',
  wrappedKeySha256Hex: 'key',
  manifestSha256Hex: 'file details',
};

const RECIPIENT_KEY_FIELDS: ReadonlySet<string> = new Set(['recipientKeyId', 'recipientKeySha256Hex']);

/** The words for a check. Unsigned items keep working (files from before signatures). */
export function signatureBadge(check: SignatureCheck, ownerEmail: string): SignatureBadge {
  switch (check.status) {
    case 'valid':
      return { tone: 'verified', text: `Signed by ${ownerEmail}`, canOpen: true, askFirst: false };
    case 'unsigned':
      return {
        tone: 'unsigned',
        text: 'Unsigned: its sender cannot be verified',
        canOpen: true,
        askFirst: true,
      };
    case 'invalid-signature':
      return {
        tone: 'danger',
        text: `Not signed by ${ownerEmail}: do not trust this file`,
        canOpen: false,
        askFirst: false,
      };
    case 'mismatch': {
      if (check.fields.every((field) => RECIPIENT_KEY_FIELDS.has(field))) {
        // Everything the owner signed matches except the key it was wrapped for: my key changed.
        return {
          tone: 'stale',
          text: `Shared before you reset your encryption; ask ${ownerEmail} to share it again`,
          canOpen: false,
          askFirst: false,
        };
      }
      const words = [...new Set(check.fields.map((field) => FIELD_WORDS[field] ?? field))].join(', ');
      return {
        tone: 'danger',
        text: `Changed after ${ownerEmail} signed it (${words})`,
        canOpen: false,
        askFirst: false,
      };
    }
  }
}
