// Keys you can check (issue 13): pure functions over @coffer/crypto for the app to call; no React.
export { assessServedKey, type KeyTrust, type KeyTrustState, type ServedKey } from './key-trust';
export { assertOwnKeyRecord, trustErrorMessage, type UnlockedKeys } from './own-keys';
export { PinBook, type PinBookKeys, type PinsPort, type PinVersionStore } from './pin-book';
export {
  checkOwnFile,
  checkSharedFile,
  signatureBadge,
  signedShareRequest,
  signUploadManifest,
  type Me,
  type SignatureBadge,
} from './signed-files';
