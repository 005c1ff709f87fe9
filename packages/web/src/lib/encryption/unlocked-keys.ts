/** What file work needs once encryption is unlocked. */
export interface UnlockedKeys {
  /** Non-extractable RSA-OAEP private key (`decrypt`, `unwrapKey`): opens file keys. */
  readonly privateKey: CryptoKey;
  /** RSA-OAEP public key (`encrypt`, `wrapKey`): wraps the owner copy of new file keys. */
  readonly publicKey: CryptoKey;
  readonly publicKeyB64: string;
  /** The key record's id (`keyId`), written as `encryptionInfo.version`. */
  readonly keyVersion: string;
  /**
   * Non-extractable signing key (`sign`): signs manifests, share grants and the pin set. Absent
   * only when no email was known to bind it to (the key record then stays without one).
   */
  readonly signingPrivateKey?: CryptoKey;
  /** base64 SPKI of the signing public key, as the (checked) key record has it. */
  readonly signingPublicKeyB64?: string;
  /**
   * Non-extractable AES-256-GCM drive key (issue 31): the root of the key tree, opens the wraps of
   * the nodes at the top of My Files. Absent while the server has none and making one failed.
   */
  readonly driveKey?: CryptoKey;
}
