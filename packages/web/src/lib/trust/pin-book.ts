import {
  emptyPinSet,
  openPinSet,
  pinContact,
  PinSetRollbackError,
  sealPinSet,
  unpinContact,
  type PinSet,
  type PinState,
} from '@coffer/crypto';
import type { PutPinSetRequest } from '@coffer/contracts';

/** Where the sealed pin set lives (proposed `GET`/`PUT /users/pins`). */
export interface PinsPort {
  /** The stored pin set's JSON text, or null before the first pin. */
  get(): Promise<string | null>;
  put(body: PutPinSetRequest): Promise<void>;
}

/**
 * The highest pin set version this device has opened or written, for one user, kept across logouts
 * (`pinVersionsOf`, in IndexedDB). It is what makes a rollback detectable; it is not secret.
 */
export interface PinVersionStore {
  get(): Promise<number>;
  /** Raises the mark; never lowers it. */
  raise(version: number): Promise<void>;
}

/** The user's own keys, checked at unlock (`assertOwnKeys`). */
export interface PinBookKeys {
  publicKeyB64: string;
  privateKey: CryptoKey;
  signingPublicKeyB64: string;
  signingPrivateKey: CryptoKey;
}

/**
 * The user's pins: opened from the server at unlock, changed only through {@link PinBook.pin} and
 * {@link PinBook.unpin}, which seal, store and remember the new version. `open` throws
 * `PinSetInvalidError` or `PinSetRollbackError` (from @coffer/crypto) when the server's copy was
 * forged, altered or rolled back: show it, and do not share until it is resolved.
 */
export class PinBook {
  private constructor(
    private current: PinSet,
    private readonly port: PinsPort,
    private readonly versions: PinVersionStore,
    private readonly keys: PinBookKeys,
  ) {}

  static async open(port: PinsPort, versions: PinVersionStore, keys: PinBookKeys): Promise<PinBook> {
    const [json, knownVersion] = await Promise.all([port.get(), versions.get()]);
    let pins: PinSet;
    if (json === null) {
      // A server that drops the pin set is a rollback to "no pins" if this device saw any.
      if (knownVersion > 0) throw new PinSetRollbackError(0, knownVersion);
      pins = emptyPinSet();
    } else {
      pins = await openPinSet(json, {
        privateKey: keys.privateKey,
        signingPublicKeyB64: keys.signingPublicKeyB64,
        knownVersion,
      });
      await versions.raise(pins.version);
    }
    return new PinBook(pins, port, versions, keys);
  }

  get pins(): PinSet {
    return this.current;
  }

  /** Pins `email` to the served keys in `state` (first sight, verified, or an accepted change). */
  async pin(
    email: string,
    served: { publicKeyB64: string; signingPublicKeyB64?: string },
    state: PinState,
  ): Promise<void> {
    await this.store(await pinContact(this.current, email, served, state));
  }

  /** Forgets `email`'s pin (the contact was deleted). */
  async unpin(email: string): Promise<void> {
    await this.store(unpinContact(this.current, email));
  }

  private async store(next: PinSet): Promise<void> {
    const pinSet = await sealPinSet(next, {
      publicKeyB64: this.keys.publicKeyB64,
      signingPrivateKey: this.keys.signingPrivateKey,
    });
    const previousVersion = this.current.version === 0 ? null : this.current.version;
    await this.port.put({ pinSet, previousVersion });
    this.current = next;
    await this.versions.raise(next.version);
  }
}
