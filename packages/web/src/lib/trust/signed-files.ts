import {
  resignShareGrant,
  signFileManifest,
  signFileManifestV2,
  signShareGrant,
  verifyFileManifest,
  verifyReceivedShare,
  type SignatureCheck,
} from '@coffer/crypto';
import type {
  FileMetadata,
  NewEncryptionInfo,
  ResignedShareGrant,
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

/**
 * The version 1 manifest of an upload without sealed metadata (`manifest` of the multipart or
 * direct upload call); an upload with sealed metadata signs version 2 (`sealedUploadNode`).
 */
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
      // A version 2 manifest signs the sealed metadata: a file served without any is a mismatch.
      encryptedMetadataB64: file.encryptedMetadata ?? '',
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
        encryptedMetadataB64: shared.file.encryptedMetadata ?? '',
        size: shared.file.size,
        chunkSize: shared.file.encryptionInfo?.chunkSize,
      },
    },
    ownerSigningPublicKeyB64,
  );
}

/** Who signs a manifest and grants again: me, with my signing key and its public half. */
export interface ManifestSigner {
  readonly ownerEmail: string;
  readonly signingPrivateKey: CryptoKey;
  readonly signingPublicKeyB64: string;
}

/** A file's manifest signed again and its shares' grants over it (members of a node change). */
export interface ResignedManifest {
  readonly manifest?: string;
  readonly shareGrants?: ResignedShareGrant[];
}

/**
 * Signs my file's manifest again as version 2 over its new sealed metadata (issue 31: the migration
 * of a clear name, a rename), and each share's grant over the new manifest, from my own file as
 * `GET /users/files/{id}` answers it (with `shareGrants`). The old manifest must check out against my
 * key and the file as served, and each old grant must be mine for this file and that manifest:
 * nothing the server changed is ever signed again. A file without a manifest gets none.
 * @throws when the old manifest or a grant does not check out (the file is then left as it is).
 */
export async function resignManifest(
  file: FileMetadata,
  encryptedMetadataB64: string,
  signer: ManifestSigner,
): Promise<ResignedManifest> {
  const oldManifest = file.manifest;
  const info = file.encryptionInfo;
  if (oldManifest === undefined) return {};
  const check = await checkOwnFile(file, signer.ownerEmail, signer.signingPublicKeyB64);
  if (check.status !== 'valid' || info === null) {
    throw new Error(`the file's manifest does not check out (${check.status}); it is not signed again`);
  }
  const manifest = await signFileManifestV2(
    {
      ownerEmail: signer.ownerEmail,
      ownerKeyId: info.version,
      ownerEncryptedFileKeyB64: info.encryptedFileKey,
      encryptedMetadataB64,
      size: file.size,
      chunkSize: info.chunkSize,
    },
    signer.signingPrivateKey,
  );
  const shareGrants = await Promise.all(
    (file.shareGrants ?? []).map(async ({ email, shareGrant }) => ({
      email,
      shareGrant: await resignShareGrant(
        shareGrant,
        { fileId: file.fileId, oldManifestJson: oldManifest, newManifestJson: manifest },
        signer.signingPublicKeyB64,
        signer.signingPrivateKey,
      ),
    })),
  );
  return { manifest, shareGrants };
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
  metadataSha256Hex: 'name',
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
