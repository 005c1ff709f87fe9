import { comparePin, emptyPinSet, type PinSet, type PinState } from '@coffer/crypto';
import { assessServedKey, assessWithoutPins, type KeyTrust, type ServedKey } from './key-trust';
import { PinBook, type PinBookKeys, type PinsPort, type PinVersionStore } from './pin-book';

/** The signed-in user's own checked keys, as the pin book needs them; null while locked. */
export interface TrustKeys extends PinBookKeys {
  email: string;
}

/** Unlocked, but without a signing key of one's own (adding it at unlock failed): no pins. */
export const MISSING_SIGNING_KEY = 'missing-signing-key';

export interface TrustSessionDeps {
  pins: PinsPort;
  /** The highest pin set version this device saw for this user, kept across logouts. */
  versions: (keys: TrustKeys) => PinVersionStore;
  /**
   * The unlocked keys (the same object for one unlock); {@link MISSING_SIGNING_KEY} when unlocked
   * without a signing key; null while locked.
   */
  keys: () => TrustKeys | typeof MISSING_SIGNING_KEY | null;
}

/**
 * The user's pins for the screens: opened once per unlock, checks served contact keys against
 * them, and changes them one at a time (two pins written at once would race for the same version).
 */
export interface TrustSession {
  /**
   * Opens the pin book of this unlock (once; later calls share it). Null while locked, or when the
   * user has no signing key to check pins with.
   * @throws {PinSetInvalidError | PinSetRollbackError} the server's copy was forged or rolled back.
   */
  open(): Promise<PinBook | null>;
  /**
   * Assesses a contact's served keys. A key never seen before is pinned now (trust on first use)
   * and answered as `tofu`; a signing key that appeared after the pin, bound to the pinned key, is
   * added to the pin. Without a signing key of one's own: `no-signing-key`, sharing blocked.
   */
  checkContact(email: string, served: ServedKey): Promise<KeyTrust>;
  /** Pins the served keys in `state`: `verified` after comparing in person, or an accepted change. */
  pin(email: string, served: ServedKey, state: PinState): Promise<void>;
  /** Forgets the book (logout, lock); the next `open` reads the server again. */
  forget(): void;
}

/** True for the server's "another device wrote the pins first" answer. */
function isConflict(error: unknown): boolean {
  return (error as { status?: unknown } | null)?.status === 409;
}

/** What to pin, decided against the pins as they are when the write runs; null: nothing. */
type PinDecision = (pins: PinSet) => Promise<PinState | null>;

export function createTrustSession(deps: TrustSessionDeps): TrustSession {
  let opened: { keys: TrustKeys; book: Promise<PinBook> } | null = null;
  /** Pin writes, one after another. */
  let writes: Promise<unknown> = Promise.resolve();

  function open(): Promise<PinBook | null> {
    const keys = deps.keys();
    if (keys === null || keys === MISSING_SIGNING_KEY) return Promise.resolve(null);
    if (opened?.keys !== keys) {
      const book = PinBook.open(deps.pins, deps.versions(keys), keys);
      opened = { keys, book };
      // A failed open is not cached: the next call reads the server again.
      book.catch(() => {
        if (opened?.book === book) opened = null;
      });
    }
    return opened.book;
  }

  function write(email: string, served: ServedKey, decide: PinDecision): Promise<void> {
    const keys = { publicKeyB64: served.publicKey, signingPublicKeyB64: served.signingPublicKey };
    const pinOnce = async (book: PinBook): Promise<void> => {
      const state = await decide(book.pins);
      if (state !== null) await book.pin(email, keys, state);
    };
    const run = async (): Promise<void> => {
      const book = await open();
      if (book === null) throw new Error('Unlock encryption before changing verified contacts.');
      try {
        await pinOnce(book);
      } catch (error) {
        if (!isConflict(error)) throw error;
        // Another device wrote first: read its pins (checked like any open) and decide again.
        opened = null;
        const fresh = await open();
        if (fresh === null) throw error;
        await pinOnce(fresh);
      }
    };
    const next = writes.then(run, run);
    writes = next.catch(() => undefined);
    return next;
  }

  /**
   * Pins what the app pins by itself, if it is still to do once earlier writes are done: a contact
   * seen for the first time, or a signing key that appeared after the pin (in the pin's state).
   */
  const automatic =
    (served: ServedKey, email: string): PinDecision =>
    async (pins) => {
      const now = await comparePin(pins, email, served.publicKey, served.signingPublicKey);
      if (now.status === 'new') return 'tofu';
      if (now.status === 'match' && now.signingKeyUnpinned) return now.pin.state;
      return null;
    };

  return {
    open,
    async checkContact(email, served) {
      if (deps.keys() === MISSING_SIGNING_KEY) return assessWithoutPins(email, served);
      const book = await open();
      const pins = book?.pins ?? emptyPinSet();
      const trust = await assessServedKey(pins, email, served);
      const toPin = trust.state === 'new' || trust.signingKeyUnpinned === true;
      if (!toPin || book === null) return trust;
      await write(email, served, automatic(served, email));
      // Re-assess against the pins as written (another check may have pinned first).
      return assessServedKey((await open())?.pins ?? pins, email, served);
    },
    pin: (email, served, state) => write(email, served, () => Promise.resolve(state)),
    forget() {
      opened = null;
    },
  };
}
