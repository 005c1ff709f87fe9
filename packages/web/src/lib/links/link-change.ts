import { resignLinkRecord } from '@coffer/crypto';
import type { ApiClient } from '../api/http';
import { linksApi } from './links-api';
import type { OwnerLink } from './link-wire';

/** My own signing key pair, as the unlocked session holds it. */
export interface LinkSigningKeys {
  readonly signingPrivateKey: CryptoKey;
  readonly signingPublicKeyB64: string;
}

/**
 * A new expiry and download limit for one of my links: its record is signed again (the items kept
 * from the record I signed before, checked with my own key first), then sent with the settings.
 */
export async function changeLinkSettings(
  api: ApiClient,
  keys: LinkSigningKeys,
  link: Pick<OwnerLink, 'linkId' | 'linkRecord'>,
  settings: { readonly expiresAt: string | null; readonly maxDownloads: number | null },
): Promise<OwnerLink> {
  const linkRecord = await resignLinkRecord(
    link.linkRecord,
    { linkId: link.linkId, ...settings },
    keys.signingPublicKeyB64,
    keys.signingPrivateKey,
  );
  return linksApi.update(api, link.linkId, { ...settings, linkRecord });
}
