import {
  ARGON2ID_PARAMS,
  base64ToBytes,
  bytesToBase64,
  createLinkId,
  createLinkPasswordSalt,
  createLinkSecret,
  deriveLinkKeys,
  encodeLinkFragment,
  linkAuthKeyHashHex,
  linkSigningKeyPin,
  sealLinkLabel,
  sealLinkMetadata,
  signLinkRecord,
  wrapFileKeyForLink,
} from '@coffer/crypto';
import type { ApiClient } from '../api/http';
import { filesApi } from '../api/files';
import { linksApi } from './links-api';
import type { LinkPasswordParams } from './link-wire';

/** What the owner chose in the dialog. */
export interface LinkSettings {
  /** ISO 8601, or null: never expires. */
  readonly expiresAt: string | null;
  /** null: unlimited. */
  readonly maxDownloads: number | null;
  /** '' or null: no password. */
  readonly password: string | null;
  /** '' or null: no label. */
  readonly label: string | null;
}

/** A file to put under the link, with the name the owner sees (decrypted) and its type. */
export interface LinkFile {
  readonly fileId: string;
  readonly name: string;
  readonly contentType: string;
}

export interface LinkOwnerKeys {
  readonly email: string;
  /** Opens each file's RSA owner copy. */
  readonly privateKey: CryptoKey;
  /** Signs the link record. */
  readonly signingPrivateKey: CryptoKey;
  /** Its public half (base64 SPKI, checked at unlock): its SHA-256 is pinned in the link's fragment. */
  readonly signingPublicKeyB64: string;
  /** Seals the label (only the owner reads it); without it the label is not kept. */
  readonly driveKey?: CryptoKey;
}

export interface CreatedLink {
  readonly linkId: string;
  /** `${origin}/l/${linkId}#${secret}.${signing key pin}`: the only place the secret ever is. */
  readonly url: string;
}

/**
 * Makes a share link for these files: a new secret S (and a password's salt), K and A from them and
 * the pin of my signing key (its SHA-256, in the fragment, so the recipient holds the served key to it),
 * each file key put under K (opened from the file's RSA owner copy, as sharing does) with its name
 * sealed beside it, the label under the drive key, the owner's signed link record; then POST
 * /users/links. The server receives SHA-256(A), never S, K, A or the password.
 */
export async function createShareLink(
  api: ApiClient,
  keys: LinkOwnerKeys,
  files: readonly LinkFile[],
  settings: LinkSettings,
  origin: string = window.location.origin,
): Promise<CreatedLink> {
  const linkId = createLinkId();
  const secretBytes = createLinkSecret();
  const password = settings.password === null || settings.password === '' ? null : settings.password;
  const passwordParams: LinkPasswordParams | null =
    password === null ? null : { salt: bytesToBase64(createLinkPasswordSalt()), kdf: { ...ARGON2ID_PARAMS } };
  const pin = await linkSigningKeyPin(keys.signingPublicKeyB64);
  const linkKeys = await deriveLinkKeys(
    secretBytes,
    password === null || passwordParams === null
      ? undefined
      : { password, saltBytes: base64ToBytes(passwordParams.salt), kdf: passwordParams.kdf },
    pin,
  );
  const items = await Promise.all(
    files.map(async (file) => {
      const place = { linkId, fileId: file.fileId };
      const encryptedFileKeyB64 = (await filesApi.get(api, file.fileId)).encryptionInfo?.encryptedFileKey;
      if (encryptedFileKeyB64 === undefined || encryptedFileKeyB64 === '') {
        throw new Error(`${file.name} is not encrypted: it cannot be shared by link.`);
      }
      const wrappedKey = await wrapFileKeyForLink(
        { encryptedFileKeyB64, rsaPrivateKey: keys.privateKey },
        linkKeys.wrapKey,
        place,
      );
      const encryptedMetadata = await sealLinkMetadata(linkKeys.wrapKey, place, {
        name: file.name,
        contentType: file.contentType,
      });
      return { fileId: file.fileId, wrappedKey, encryptedMetadata };
    }),
  );
  const label =
    settings.label === null || settings.label.trim() === '' || keys.driveKey === undefined
      ? null
      : await sealLinkLabel(keys.driveKey, linkId, settings.label.trim());
  const linkRecord = await signLinkRecord(
    {
      linkId,
      ownerEmail: keys.email,
      items: items.map((item) => ({ fileId: item.fileId, wrappedKeyB64: item.wrappedKey })),
      expiresAt: settings.expiresAt,
      maxDownloads: settings.maxDownloads,
    },
    keys.signingPrivateKey,
  );
  await linksApi.create(api, {
    linkId,
    items,
    expiresAt: settings.expiresAt,
    maxDownloads: settings.maxDownloads,
    label,
    authKeyHash: await linkAuthKeyHashHex(linkKeys.authKeyBytes),
    password: passwordParams,
    linkRecord,
  });
  return { linkId, url: `${origin}/l/${linkId}#${encodeLinkFragment(secretBytes, pin)}` };
}
