/**
 * A software WebAuthn authenticator for tests: an ES256 (P-256) key per credential, made with
 * node:crypto, that answers the server's options the way a browser and a platform authenticator would
 * (attestation "none", user present and verified). `counter: 'fixed'` keeps the signature counter at 0
 * like many passkey providers, so only the challenge stops a replay.
 */
import { createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import type { KeyObject } from 'node:crypto';

type Cbor = number | string | Uint8Array | Cbor[] | Map<Cbor, Cbor>;

function head(major: number, length: number): Buffer {
  if (length < 24) return Buffer.from([(major << 5) | length]);
  if (length < 256) return Buffer.from([(major << 5) | 24, length]);
  if (length < 65536) return Buffer.from([(major << 5) | 25, length >> 8, length & 0xff]);
  const b = Buffer.alloc(5);
  b[0] = (major << 5) | 26;
  b.writeUInt32BE(length, 1);
  return b;
}

/** The little CBOR (RFC 8949) attestation objects and COSE keys need: ints, strings, bytes, arrays, maps. */
export function cbor(value: Cbor): Buffer {
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, bytes.length), bytes]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), value]);
  if (Array.isArray(value)) return Buffer.concat([head(4, value.length), ...value.map(cbor)]);
  const parts = [head(5, value.size)];
  for (const [k, v] of value) parts.push(cbor(k), cbor(v));
  return Buffer.concat(parts);
}

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

interface Credential {
  id: Buffer;
  privateKey: KeyObject;
  userHandle: string;
  counter: number;
}

export interface CreationOptions {
  challenge: string;
  rp: { id?: string };
  user: { id: string };
}

export interface RequestOptions {
  challenge: string;
  rpId?: string;
  allowCredentials?: { id: string }[];
}

export class SoftwareAuthenticator {
  readonly credentials: Credential[] = [];

  constructor(
    private readonly origin: string,
    private readonly counterMode: 'counting' | 'fixed' = 'counting',
  ) {}

  private clientData(type: 'webauthn.create' | 'webauthn.get', challenge: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin: this.origin, crossOrigin: false }), 'utf8');
  }

  /** navigator.credentials.create(): a new credential, as @simplewebauthn/browser sends it. */
  register(options: CreationOptions) {
    const rpId = options.rp.id ?? new URL(this.origin).hostname;
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const id = randomBytes(16);
    const coseKey = cbor(
      new Map<Cbor, Cbor>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x ?? '', 'base64url')],
        [-3, Buffer.from(jwk.y ?? '', 'base64url')],
      ]),
    );
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(id.length);
    const authData = Buffer.concat([
      sha256(rpId),
      Buffer.from([0x45]), // user present, user verified, attested credential data
      Buffer.alloc(4),
      Buffer.alloc(16), // AAGUID
      idLength,
      id,
      coseKey,
    ]);
    const attestationObject = cbor(
      new Map<Cbor, Cbor>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]),
    );
    this.credentials.push({ id, privateKey, userHandle: options.user.id, counter: 0 });
    return {
      id: b64url(id),
      rawId: b64url(id),
      type: 'public-key',
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
      response: {
        clientDataJSON: b64url(this.clientData('webauthn.create', options.challenge)),
        attestationObject: b64url(attestationObject),
        transports: ['internal'],
      },
    };
  }

  /** navigator.credentials.get(): an assertion by the first allowed (or the only) credential. */
  assert(options: RequestOptions, override: { counter?: number } = {}) {
    const allowed = options.allowCredentials?.map((c) => c.id) ?? [];
    const credential =
      this.credentials.find((c) => allowed.length === 0 || allowed.includes(b64url(c.id))) ??
      this.credentials[0];
    if (credential === undefined) throw new Error('no credential');
    if (this.counterMode === 'counting') credential.counter += 1;
    const counter = override.counter ?? (this.counterMode === 'counting' ? credential.counter : 0);
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    const rpId = options.rpId ?? new URL(this.origin).hostname;
    const authData = Buffer.concat([sha256(rpId), Buffer.from([0x05]), count]);
    const clientData = this.clientData('webauthn.get', options.challenge);
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientData)]), credential.privateKey);
    return {
      id: b64url(credential.id),
      rawId: b64url(credential.id),
      type: 'public-key',
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
      response: {
        clientDataJSON: b64url(clientData),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: credential.userHandle,
      },
    };
  }
}
