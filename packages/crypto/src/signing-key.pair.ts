import { bytesToBase64, spkiBytesFromB64 } from './base64.codec.js';
import { hexToBytes, toBufferSource } from './bytes.util.js';
import { InvalidArgumentError, InvalidKeyError } from './crypto.errors.js';

/**
 * Signature algorithms of a user's signing key: Ed25519 where WebCrypto has it (Node 20, Chromium
 * 137+, Firefox 129+, Safari 17+), else ECDSA on P-256 with SHA-256 (IEEE P1363 `r || s`, 64 bytes).
 */
export type SigningAlgorithm = 'Ed25519' | 'ECDSA-P256';

export const SIGNING_ALGORITHMS: readonly SigningAlgorithm[] = ['Ed25519', 'ECDSA-P256'];

interface AlgorithmParams {
  generate: AlgorithmIdentifier | EcKeyGenParams;
  importParams: AlgorithmIdentifier | EcKeyImportParams;
  sign: AlgorithmIdentifier | EcdsaParams;
  /** DER prefix of the SPKI encoding, before the raw public key bytes. */
  spkiPrefix: Uint8Array;
  /** Length of the whole SPKI encoding. */
  spkiLength: number;
}

const PARAMS: Record<SigningAlgorithm, AlgorithmParams> = {
  Ed25519: {
    generate: { name: 'Ed25519' },
    importParams: { name: 'Ed25519' },
    sign: { name: 'Ed25519' },
    // SEQUENCE { SEQUENCE { OID 1.3.101.112 } BIT STRING (32 bytes) }
    spkiPrefix: hexToBytes('302a300506032b6570032100'),
    spkiLength: 44,
  },
  'ECDSA-P256': {
    generate: { name: 'ECDSA', namedCurve: 'P-256' },
    importParams: { name: 'ECDSA', namedCurve: 'P-256' },
    sign: { name: 'ECDSA', hash: 'SHA-256' },
    // SEQUENCE { SEQUENCE { OID ecPublicKey, OID prime256v1 } BIT STRING (uncompressed point) }
    spkiPrefix: hexToBytes('3059301306072a8648ce3d020106082a8648ce3d030107034200'),
    spkiLength: 91,
  },
};

let detected: Promise<SigningAlgorithm> | undefined;

/**
 * The algorithm new signing keys use here: Ed25519 if this WebCrypto can generate an Ed25519 key,
 * else ECDSA-P256. Probed once and remembered.
 */
export async function preferredSigningAlgorithm(): Promise<SigningAlgorithm> {
  detected ??= crypto.subtle
    .generateKey(PARAMS.Ed25519.generate, false, ['sign', 'verify'])
    .then((): SigningAlgorithm => 'Ed25519')
    .catch((): SigningAlgorithm => 'ECDSA-P256');
  return detected;
}

/**
 * Generates a signing key pair. The private key is extractable because it must be wrapped once
 * with the user's password ({@link encryptSigningKey}); keep only the non-extractable key that
 * unlocking returns.
 */
export async function generateSigningKeyPair(algorithm?: SigningAlgorithm): Promise<CryptoKeyPair> {
  const chosen = algorithm ?? (await preferredSigningAlgorithm());
  const pair = await crypto.subtle.generateKey(PARAMS[chosen].generate, true, ['sign', 'verify']);
  // Ed25519 and ECDSA both generate a pair; the type union also allows a single key.
  if (!('privateKey' in pair)) throw new InvalidArgumentError('expected a key pair');
  return pair;
}

/** The algorithm of a signing key (public or private). */
export function signingAlgorithmOf(key: CryptoKey): SigningAlgorithm {
  const algorithm = key.algorithm as Partial<EcKeyAlgorithm>;
  if (algorithm.name === 'Ed25519') return 'Ed25519';
  if (algorithm.name === 'ECDSA' && algorithm.namedCurve === 'P-256') return 'ECDSA-P256';
  throw new InvalidKeyError(`not a signing key: ${String(algorithm.name)}`);
}

/** Standard base64 of a signing public key's SPKI DER encoding (44 bytes Ed25519, 91 bytes P-256). */
export async function exportSigningPublicKeyB64(publicKey: CryptoKey): Promise<string> {
  signingAlgorithmOf(publicKey);
  return bytesToBase64(new Uint8Array(await crypto.subtle.exportKey('spki', publicKey)));
}

/** The algorithm a signing public key's SPKI bytes are for, from their exact DER prefix. */
export function signingAlgorithmOfSpki(spkiBytes: Uint8Array): SigningAlgorithm {
  for (const algorithm of SIGNING_ALGORITHMS) {
    const { spkiPrefix, spkiLength } = PARAMS[algorithm];
    if (spkiBytes.length === spkiLength && spkiPrefix.every((byte, i) => spkiBytes[i] === byte)) {
      return algorithm;
    }
  }
  throw new InvalidKeyError('not an Ed25519 or ECDSA P-256 SPKI public key');
}

/**
 * Imports a signing public key from base64 SPKI; the algorithm follows from the key itself.
 * @throws {InvalidKeyError} not base64, not an Ed25519 / P-256 SPKI key, or not a valid point.
 */
export async function importSigningPublicKeyB64(signingPublicKeyB64: string): Promise<CryptoKey> {
  const spkiBytes = spkiBytesFromB64(signingPublicKeyB64, 'signing public key');
  const algorithm = signingAlgorithmOfSpki(spkiBytes);
  try {
    return await crypto.subtle.importKey('spki', spkiBytes, PARAMS[algorithm].importParams, true, ['verify']);
  } catch (cause) {
    throw new InvalidKeyError(`signing public key is not a valid ${algorithm} key`, { cause });
  }
}

/** The WebCrypto parameters to import a signing private key of `algorithm` from PKCS#8. */
export function signingImportParams(algorithm: SigningAlgorithm): AlgorithmIdentifier | EcKeyImportParams {
  return PARAMS[algorithm].importParams;
}

/** Signs `messageBytes` with a signing private key. Ed25519 signatures are deterministic. */
export async function signBytes(signingPrivateKey: CryptoKey, messageBytes: Uint8Array): Promise<Uint8Array> {
  const algorithm = signingAlgorithmOf(signingPrivateKey);
  return new Uint8Array(
    await crypto.subtle.sign(PARAMS[algorithm].sign, signingPrivateKey, toBufferSource(messageBytes)),
  );
}

/** Whether `signatureBytes` is a valid signature of `messageBytes` by `signingPublicKey`. */
export async function verifyBytes(
  signingPublicKey: CryptoKey,
  signatureBytes: Uint8Array,
  messageBytes: Uint8Array,
): Promise<boolean> {
  const algorithm = signingAlgorithmOf(signingPublicKey);
  // Both algorithms' signatures are exactly 64 bytes; anything else is simply not valid.
  if (signatureBytes.length !== 64) return false;
  try {
    return await crypto.subtle.verify(
      PARAMS[algorithm].sign,
      signingPublicKey,
      toBufferSource(signatureBytes),
      toBufferSource(messageBytes),
    );
  } catch {
    return false;
  }
}
