export {
  base64UrlToBytes,
  bytesToBase64Url,
  createLinkId,
  createLinkSecret,
  encodeLinkFragment,
  encodeRequestFragment,
  isLinkId,
  type LinkFragment,
  LINK_ID_LENGTH,
  LINK_SECRET_LENGTH,
  parseLinkFragment,
  parseRequestFragment,
  type RequestFragment,
} from './link-secret.fragment.js';
export {
  createLinkPasswordSalt,
  deriveLinkKeys,
  LINK_AUTH_INFO,
  LINK_PASSWORD_SALT_LENGTH,
  LINK_WRAP_INFO,
  linkAuthKeyHashHex,
  type LinkKeys,
  type LinkPassword,
} from './link-keys.derive.js';
export {
  linkKeyAad,
  unwrapLinkFileKey,
  wrapFileKeyForLink,
  type LinkFileKeySource,
  type LinkItemPlace,
} from './link-key.wrap.js';
export {
  MAX_LINK_LABEL_LENGTH,
  MAX_REQUEST_MESSAGE_LENGTH,
  openLinkLabel,
  openLinkMetadata,
  openRequestMessage,
  sealLinkLabel,
  sealLinkMetadata,
  sealRequestMessage,
} from './link-text.seal.js';
export {
  linkRecordMessage,
  parseLinkRecord,
  resignLinkRecord,
  signLinkRecord,
  verifyLinkRecord,
  type LinkRecord,
  type LinkRecordFields,
} from './link.record.js';
export { linkSigningKeyMatches, linkSigningKeyPin } from './link-signer.pin.js';
export { assertRequestOwnerKey, ownerKeySha256Hex } from './request-owner-key.check.js';
