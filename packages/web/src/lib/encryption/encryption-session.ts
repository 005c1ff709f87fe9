import {
  POST_UNLOCK_WAIT_MS,
  sessionStorageKeys,
  validateMasterKey,
  type AddSigningKeyRequest,
  type CreateKeyRequest,
  type KeyRecord,
  type PutDriveKeyRequest,
  type RewrapKeyRequest,
} from '@coffer/contracts';
import {
  createKeyBinding,
  createRecoveryKit as newRecoveryKit,
  createRecoveryWraps,
  createSigningKeys,
  createUserKeys,
  importPublicKeyB64,
  KdfDowngradeError,
  KeyMismatchError,
  keyRecordRev,
  KeyRollbackError,
  recordNeedsUpgrade,
  parsePrivateKeyRecord,
  recoverUserKeys,
  RecoveryKitMismatchError,
  recoveryKitId,
  RecoveryWordsError,
  recoveryWordsToSecret,
  rewrapUserKeys,
  unlockUserKeys,
  WrongPasswordError,
  type UserKeyWrapOptions,
} from '@coffer/crypto';
import type {
  PutRecoveryKitRequest,
  RecoveryKitRecord,
  RewrapAllKeysRequest,
  WrappedKeyEntry,
} from '../api/keys-recovery';
import type { SessionFlags } from '../storage/session-flags';
import {
  randomHandle as defaultRandomHandle,
  UNLOCKED_KEY_IDLE_TIMEOUT_MS,
  type UnlockedKeyStore,
} from '../storage/unlocked-key-store';
import {
  EncryptionNotInitializedError,
  InvalidPasswordError,
  KeysAlreadyExistError,
  KeysNotFoundError,
  KeysTamperedError,
  NoRecoveryKitError,
  RecoveryKitReplacedError,
  RecoveryWordsInvalidError,
  UnlockFailedError,
  WrongOldPasswordError,
} from './encryption.errors';
import { assertOwnKeyRecord, trustErrorMessage } from '../trust/own-keys';
import { defaultKeyRevStore, type KeyRevStore } from './key-rev.store';
import { realSleep, withRetry, type Sleep } from './retry';
import { driveKeyFor } from './drive-key';
import type { UnlockedKeys } from './unlocked-keys';

export type { UnlockedKeys } from './unlocked-keys';

/** The server calls the session makes (spec section 7, key rows). `keysPortFrom` adapts the API client. */
export interface KeysPort {
  list(): Promise<KeyRecord[]>;
  /** The newest key record by creation date. */
  active(): Promise<KeyRecord>;
  create(body: CreateKeyRequest): Promise<KeyRecord>;
  delete(keyId: string): Promise<unknown>;
  /** KDF upgrade: both records of one key re-wrapped (PUT /users/keys/{keyId}). */
  rewrap(keyId: string, body: RewrapKeyRequest): Promise<KeyRecord>;
  /**
   * A change of master unlock key or a recovery: every key record re-wrapped in one call
   * (PUT /users/keys), so an interrupted change leaves all old or all new. 409 when the list is not
   * exactly the caller's records.
   */
  rewrapAll(body: RewrapAllKeysRequest): Promise<KeyRecord[]>;
  /** The recovery kit's wraps (GET /users/keys/recovery), or null when there is none. */
  recoveryKit(): Promise<RecoveryKitRecord | null>;
  /** Stores a new recovery kit; the server drops the previous one (PUT /users/keys/recovery). */
  putRecoveryKit(body: PutRecoveryKitRequest): Promise<unknown>;
  /** Gives a record made before signing keys its signing key, once (409 when it has one). */
  addSigningKey(keyId: string, body: AddSigningKeyRequest): Promise<KeyRecord>;
  /** Gives a key record its wrapped drive key, once (PUT …/drive-key; 409 when it has one). */
  putDriveKey(keyId: string, body: PutDriveKeyRequest): Promise<KeyRecord>;
}

/** Spec section 4: not initialised, then unlocked (keys in memory, key version set). */
export type EncryptionState =
  { readonly status: 'not-initialised' } | { readonly status: 'unlocked'; readonly keys: UnlockedKeys };

/** What the unlock screen offers: a first set-up, or unlocking the newest key. */
export type SetupStatus = 'set-up' | 'unlock';

export interface EncryptionSessionDeps {
  keys: KeysPort;
  keyStore: UnlockedKeyStore;
  flags: SessionFlags;
  /** Subject of the signed-in user; a stored key is only restored for the user that unlocked it. */
  owner?: () => string | null;
  /** Email of the signed-in user (ID token): what the key binding names and the unlock check expects. */
  email?: () => string | null;
  /**
   * Tests only: new and re-wrapped records are PBKDF2 with these iterations instead of Argon2id
   * (64 MiB, 3 passes), which costs ~0.5 s per derivation.
   */
  pbkdf2Iterations?: number;
  /** The rollback guard's marks (issue 29); default localStorage. */
  keyRevs?: KeyRevStore;
  sleep?: Sleep;
  now?: () => number;
  randomHandle?: () => string;
  idleTimeoutMs?: number;
  /** Called with errors of background work (legacy record upgrade, key store housekeeping). */
  onBackgroundError?: (error: unknown) => void;
}

export interface EncryptionSession {
  subscribe: (listener: () => void) => () => void;
  getSnapshot: () => EncryptionState;
  isUnlocked(): boolean;
  /** The unlocked private key, or null. */
  readonly privateKey: CryptoKey | null;
  readonly publicKey: CryptoKey | null;
  /** The key version (key id) of the unlocked key, or null. */
  readonly keyVersion: string | null;
  /**
   * The unlocked keys, for encrypting, decrypting and sharing.
   * @throws {EncryptionNotInitializedError} encryption is not unlocked.
   */
  requireKeys(): UnlockedKeys;
  /** Set-up when the user has no keys or the needsNewEncryption flag is set; else unlock. */
  getSetupStatus(): Promise<SetupStatus>;
  /** The spec's "initialise": set-up or unlock, whichever the server's keys call for. */
  initialise(password: string): Promise<'created' | 'unlocked'>;
  /**
   * A new key pair wrapped with `password` (Argon2id, 64 MiB, 3 passes), stored with POST /users/keys.
   * @throws {InvalidPasswordError} the password breaks a rule of spec section 5.
   * @throws {KeysAlreadyExistError} keys exist and no reset asked for new ones.
   */
  setUp(password: string): Promise<void>;
  /**
   * Opens the newest key with `password`.
   * @throws {UnlockFailedError} wrong password ('Encryption Unlock failed. Please try again.').
   * @throws {KeysNotFoundError} the user has no keys.
   */
  unlock(password: string): Promise<void>;
  /** Restores the unlocked key of this tab after a reload; false when there is none (or it expired). */
  restore(): Promise<boolean>;
  /** Back to not initialised; forgets this tab's stored key (`everywhere`: every stored key). */
  clear(options?: { everywhere?: boolean }): Promise<void>;
  /** Forgotten key: deletes every key on the server, clears, sets needsNewEncryption. */
  reset(): Promise<void>;
  /**
   * Re-wraps every private key under a new master unlock key, all in one PUT /users/keys: the old
   * key stops opening them on every device, and an interrupted change leaves all old or all new.
   * @throws {WrongOldPasswordError} `oldPassword` does not open the newest key; nothing changes.
   * @throws {InvalidPasswordError} `newPassword` breaks a rule of spec section 5.
   * @throws {KeysNotFoundError} the user has no keys.
   */
  changePassword(oldPassword: string, newPassword: string): Promise<void>;
  /** The recovery kit the server holds (its id and date), or null when there is none. */
  recoveryKitStatus(): Promise<RecoveryKitSummary | null>;
  /**
   * A new recovery kit: 24 words whose secret wraps every private key a second time, stored with
   * PUT /users/keys/recovery (the previous kit stops working). The words are returned once and
   * kept nowhere.
   * @throws {WrongOldPasswordError} `password` does not open the keys; nothing changes.
   */
  createRecoveryKit(password: string): Promise<NewRecoveryKitWords>;
  /**
   * Checks typed words before a new master unlock key is asked for.
   * @throws {RecoveryWordsInvalidError} not 24 words, an unknown word, or a mistyped one.
   * @throws {RecoveryKitReplacedError} the words are those of a kit replaced since.
   * @throws {NoRecoveryKitError} the person has no recovery kit.
   */
  checkRecoveryWords(words: string): Promise<void>;
  /**
   * Forgotten master unlock key: opens the private keys with the kit's words, re-wraps them under
   * `newPassword` (one PUT /users/keys) and unlocks. The key pair stays, so every file, share,
   * contact pin and signature does too; the kit keeps working.
   * @throws the errors of `checkRecoveryWords`, and {InvalidPasswordError} for `newPassword`.
   */
  recover(words: string, newPassword: string): Promise<void>;
}

/** What the profile shows of a recovery kit: never its words. */
export interface RecoveryKitSummary {
  kitId: string;
  createdAt: string;
}

/** A kit just made: the words to show once, and its id. */
export interface NewRecoveryKitWords {
  words: string[];
  kitId: string;
}

const NOT_INITIALISED: EncryptionState = { status: 'not-initialised' };
/** A use of the keys is written to the key store at most this often. */
const TOUCH_INTERVAL_MS = 60_000;

/** The encryption session of spec section 4, outside React (subscribe/getSnapshot for `useSyncExternalStore`). */
export function createEncryptionSession(deps: EncryptionSessionDeps): EncryptionSession {
  const legacyIterations = deps.pbkdf2Iterations;
  /** How records are wrapped: Argon2id (what Coffer writes), or PBKDF2 in tests that ask for it. */
  const wrapOptions: UserKeyWrapOptions =
    legacyIterations === undefined ? {} : { iterations: legacyIterations };
  const keyRevs = deps.keyRevs ?? defaultKeyRevStore();
  const sleep = deps.sleep ?? realSleep;
  const now = deps.now ?? Date.now;
  const newHandle = deps.randomHandle ?? defaultRandomHandle;
  const idleTimeoutMs = deps.idleTimeoutMs ?? UNLOCKED_KEY_IDLE_TIMEOUT_MS;
  const owner = deps.owner ?? (() => null);
  const email = deps.email ?? (() => null);
  const onBackgroundError =
    deps.onBackgroundError ??
    ((error: unknown) => {
      console.warn('Encryption session background task failed', error);
    });
  const { flags, keyStore } = deps;

  let state: EncryptionState = NOT_INITIALISED;
  let lastTouch = 0;
  let pendingRestore: Promise<boolean> | null = null;
  /** Bumped by clear(): a restore or unlock that started before must not publish its keys. */
  let generation = 0;
  const listeners = new Set<() => void>();

  function publish(next: EncryptionState): void {
    state = next;
    for (const listener of listeners) listener();
  }

  function background(work: Promise<unknown>): void {
    work.catch(onBackgroundError);
  }

  function assertValidPassword(password: string): void {
    const problem = validateMasterKey(password);
    if (problem !== null) throw new InvalidPasswordError(problem);
  }

  /** Keeps the unlocked key for reloads of this tab; in memory only if the key store fails. */
  async function persist(keys: UnlockedKeys): Promise<void> {
    const previous = flags.get(sessionStorageKeys.encryptionDerivedKey);
    const handle = newHandle();
    try {
      if (previous !== null) await keyStore.delete(previous);
      await keyStore.put({ handle, ...keys, owner: owner(), lastUsedAt: now() });
      flags.set(sessionStorageKeys.encryptionDerivedKey, handle);
      lastTouch = now();
    } catch (error) {
      flags.remove(sessionStorageKeys.encryptionDerivedKey);
      onBackgroundError(error);
    }
    background(keyStore.deleteUnusedSince(now() - idleTimeoutMs));
  }

  async function becomeUnlocked(keys: UnlockedKeys, startedAt: number): Promise<void> {
    if (startedAt !== generation) return;
    await persist(keys);
    if (startedAt !== generation) return;
    flags.set(sessionStorageKeys.encryptionInitialized, 'true');
    publish({ status: 'unlocked', keys });
  }

  async function fetchActiveKey(): Promise<KeyRecord> {
    try {
      return await withRetry(() => deps.keys.active(), { sleep, isFinal: isAuthError });
    } catch (error) {
      if (isKeysNotFound(error)) throw new KeysNotFoundError();
      throw error;
    }
  }

  /**
   * Opens the record with the password, then proves the served keys are the private keys' own
   * halves, bound to this email and key id (issue 13): a server must not make the user wrap file keys
   * to a key it holds, nor trust a signing key it made up.
   */
  async function keysFromRecord(record: KeyRecord, password: string): Promise<UnlockedKeys> {
    const userEmail = email();
    let opened;
    let rev;
    try {
      // The rollback guard first (issue 29): an older copy than this browser has seen is refused
      // before the password is tried on it.
      rev = keyRecordRev(record.encryptedPrivateKey);
      keyRevs.assertNotRolledBack(owner() ?? '', record.keyId, rev);
      opened = await unlockUserKeys(password, record.encryptedPrivateKey, record.encryptedSigningKey);
      await assertOwnKeyRecord(record, userEmail ?? '', opened);
    } catch (error) {
      throw tamperedOr(error);
    }
    keyRevs.remember(owner() ?? '', record.keyId, rev);
    return {
      privateKey: opened.privateKey,
      publicKey: await importPublicKeyB64(record.publicKey),
      publicKeyB64: record.publicKey,
      keyVersion: record.keyId,
      ...(opened.signingPrivateKey === undefined || record.signingPublicKey === undefined
        ? {}
        : { signingPrivateKey: opened.signingPrivateKey, signingPublicKeyB64: record.signingPublicKey }),
    };
  }

  /**
   * A record made before signing keys gets one now, while the password is at hand: created under
   * the same salt and KDF, bound to this email and key id, and added once (PUT …/signing). When
   * another device added one first (409), that one is opened instead.
   */
  async function withSigningKey(record: KeyRecord, password: string): Promise<KeyRecord> {
    const userEmail = email();
    if (record.encryptedSigningKey !== undefined || userEmail === null) return record;
    const created = await createSigningKeys(password, record.encryptedPrivateKey);
    const keyBinding = await createKeyBinding(
      {
        email: userEmail,
        keyId: record.keyId,
        publicKeyB64: record.publicKey,
        signingPublicKeyB64: created.signingPublicKeyB64,
      },
      created.signingPrivateKey,
    );
    try {
      return await deps.keys.addSigningKey(record.keyId, {
        signingPublicKey: created.signingPublicKeyB64,
        encryptedSigningKey: created.encryptedSigningKeyJson,
        keyBinding,
      });
    } catch (error) {
      if ((error as { status?: unknown } | null)?.status === 409) return fetchActiveKey();
      throw error;
    }
  }

  /**
   * Records wrapped with an older derivation than today's are re-wrapped once opened: PBKDF2 records
   * (with or without `kdf`) become Argon2id records with rev 1 (issue 29); with `pbkdf2Iterations`
   * (tests), records with fewer iterations. The new revision is remembered at once, so from then on
   * this browser refuses the PBKDF2 copy if the server serves it again.
   */
  async function upgradeRecord(record: KeyRecord, password: string): Promise<void> {
    const parsed = parsePrivateKeyRecord(record.encryptedPrivateKey);
    const outdated =
      legacyIterations === undefined
        ? recordNeedsUpgrade(record.encryptedPrivateKey)
        : parsed.kdf.name === 'PBKDF2' && parsed.iterations < legacyIterations;
    if (!outdated) return;
    const upgraded = await rewrapUserKeys(
      password,
      password,
      record.encryptedPrivateKey,
      record.encryptedSigningKey,
      wrapOptions,
    );
    await deps.keys.rewrap(record.keyId, rewrapBody(upgraded));
    rememberRevs([{ keyId: record.keyId, encryptedPrivateKey: upgraded.encryptedPrivateKeyJson }]);
  }

  /** Raises the rollback guard's marks to the revisions just written. */
  function rememberRevs(entries: readonly { keyId: string; encryptedPrivateKey: string }[]): void {
    for (const entry of entries) {
      keyRevs.remember(owner() ?? '', entry.keyId, keyRecordRev(entry.encryptedPrivateKey));
    }
  }

  /**
   * The keys with the drive key (issue 31). A wrap the user did not sign, or that does not open, is
   * refused like any altered key (KeysTamperedError); any other failure (offline, an older server, no
   * signing key yet) leaves the keys without one, and the next unlock tries again.
   */
  async function withDriveKey(record: KeyRecord, keys: UnlockedKeys): Promise<UnlockedKeys> {
    // Without a signing key a drive key can be neither signed nor checked: none until one is added.
    if (keys.signingPrivateKey === undefined || email() === null) return keys;
    try {
      return { ...keys, driveKey: await driveKeyFor(record, keys, email(), deps.keys) };
    } catch (error) {
      if (error instanceof KeysTamperedError) throw error;
      onBackgroundError(error);
      return keys;
    }
  }

  const session: EncryptionSession = {
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    getSnapshot: () => state,
    isUnlocked: () => state.status === 'unlocked',
    get privateKey() {
      return state.status === 'unlocked' ? state.keys.privateKey : null;
    },
    get publicKey() {
      return state.status === 'unlocked' ? state.keys.publicKey : null;
    },
    get keyVersion() {
      return state.status === 'unlocked' ? state.keys.keyVersion : null;
    },

    requireKeys() {
      if (state.status !== 'unlocked') throw new EncryptionNotInitializedError();
      const handle = flags.get(sessionStorageKeys.encryptionDerivedKey);
      if (handle !== null && now() - lastTouch >= TOUCH_INTERVAL_MS) {
        lastTouch = now();
        background(keyStore.touch(handle, lastTouch));
      }
      return state.keys;
    },

    async getSetupStatus() {
      if (flags.isSet(sessionStorageKeys.needsNewEncryption)) return 'set-up';
      const keys = await deps.keys.list();
      return keys.length === 0 ? 'set-up' : 'unlock';
    },

    async initialise(password) {
      if ((await session.getSetupStatus()) === 'set-up') {
        await session.setUp(password);
        return 'created';
      }
      await session.unlock(password);
      return 'unlocked';
    },

    async setUp(password) {
      assertValidPassword(password);
      const startedAt = generation;
      if (!flags.isSet(sessionStorageKeys.needsNewEncryption) && (await deps.keys.list()).length > 0) {
        throw new KeysAlreadyExistError();
      }
      const created = await createUserKeys(password, wrapOptions);
      const userEmail = email();
      let body: CreateKeyRequest = {
        publicKey: created.publicKeyB64,
        encryptedPrivateKey: created.encryptedPrivateKeyJson,
      };
      if (userEmail !== null) {
        // The binding names the key id, so the client chooses it (a lower-case UUID).
        const keyId = crypto.randomUUID().toLowerCase();
        const keyBinding = await createKeyBinding(
          {
            email: userEmail,
            keyId,
            publicKeyB64: created.publicKeyB64,
            signingPublicKeyB64: created.signingPublicKeyB64,
          },
          created.signingPrivateKey,
        );
        body = {
          ...body,
          keyId,
          signingPublicKey: created.signingPublicKeyB64,
          encryptedSigningKey: created.encryptedSigningKeyJson,
          keyBinding,
        };
      }
      const record = await deps.keys.create(body);
      flags.remove(sessionStorageKeys.needsNewEncryption);
      const keys = await withDriveKey(record, {
        privateKey: created.privateKey,
        publicKey: created.publicKey,
        publicKeyB64: created.publicKeyB64,
        keyVersion: record.keyId,
        ...(userEmail === null
          ? {}
          : {
              signingPrivateKey: created.signingPrivateKey,
              signingPublicKeyB64: created.signingPublicKeyB64,
            }),
      });
      await becomeUnlocked(keys, startedAt);
    },

    async unlock(password) {
      const startedAt = generation;
      const served = await fetchActiveKey();
      // The password is checked (and the KDF guarded) before anything is added to the record.
      const servedKeys = await keysFromRecord(served, password);
      let record = served;
      try {
        record = await withSigningKey(served, password);
      } catch (error) {
        // Unlocking must not fail because the upgrade did; the next unlock tries again.
        onBackgroundError(error);
      }
      // A record that gained a signing key is opened and checked again, binding and all.
      const keys =
        servedKeys.signingPrivateKey === undefined && record.encryptedSigningKey !== undefined
          ? await keysFromRecord(record, password)
          : servedKeys;
      await becomeUnlocked(await withDriveKey(record, keys), startedAt);
      background(upgradeRecord(record, password));
      // Spec section 4: a wait of 100 ms follows unlock.
      await sleep(POST_UNLOCK_WAIT_MS);
    },

    restore() {
      if (state.status === 'unlocked') return Promise.resolve(true);
      pendingRestore ??= (async () => {
        const startedAt = generation;
        const handle = flags.get(sessionStorageKeys.encryptionDerivedKey);
        if (handle === null) return false;
        const forget = async (): Promise<false> => {
          flags.remove(sessionStorageKeys.encryptionDerivedKey);
          flags.remove(sessionStorageKeys.encryptionInitialized);
          await keyStore.delete(handle).catch(onBackgroundError);
          return false;
        };
        let entry;
        try {
          entry = await keyStore.get(handle);
        } catch (error) {
          onBackgroundError(error);
          return false;
        }
        if (entry === undefined) return forget();
        if (now() - entry.lastUsedAt > idleTimeoutMs) return forget();
        const currentOwner = owner();
        // Not signed in (yet): nothing to restore into, but the entry may still be ours.
        if (currentOwner === null) return false;
        if (entry.owner !== currentOwner) return forget();
        // The key may have been reset in another tab: it must still be the newest key on the server.
        let active: KeyRecord | null = null;
        try {
          active = await deps.keys.active();
          if (active.keyId !== entry.keyVersion) return await forget();
        } catch (error) {
          if (isKeysNotFound(error)) return forget();
          // Offline or a server hiccup: the stored key is still ours; keep working with it.
        }
        if (active !== null) {
          try {
            await assertOwnKeyRecord(active, email() ?? '', entry);
          } catch {
            // The served record no longer matches the stored keys: unlock again, where the check
            // runs with the password and the screen says why it refuses.
            return forget();
          }
        }
        // An entry stored before the drive key existed gets it now (one RSA operation).
        let driveKey = entry.driveKey;
        if (driveKey === undefined && active?.wrappedDriveKey !== undefined) {
          try {
            driveKey = (await withDriveKey(active, entry)).driveKey;
          } catch {
            // An altered wrap: unlock again, where the screen says why it refuses.
            return forget();
          }
          if (driveKey !== undefined) {
            await keyStore.put({ ...entry, driveKey }).catch(onBackgroundError);
          }
        }
        if (startedAt !== generation) return false;
        lastTouch = now();
        await keyStore.touch(handle, lastTouch).catch(onBackgroundError);
        flags.set(sessionStorageKeys.encryptionInitialized, 'true');
        publish({
          status: 'unlocked',
          keys: {
            privateKey: entry.privateKey,
            publicKey: entry.publicKey,
            publicKeyB64: entry.publicKeyB64,
            keyVersion: entry.keyVersion,
            ...(entry.signingPrivateKey === undefined || entry.signingPublicKeyB64 === undefined
              ? {}
              : {
                  signingPrivateKey: entry.signingPrivateKey,
                  signingPublicKeyB64: entry.signingPublicKeyB64,
                }),
            ...(driveKey === undefined ? {} : { driveKey }),
          },
        });
        return true;
      })().finally(() => {
        pendingRestore = null;
      });
      return pendingRestore;
    },

    async clear(options = {}) {
      generation += 1;
      const handle = flags.get(sessionStorageKeys.encryptionDerivedKey);
      flags.remove(sessionStorageKeys.encryptionDerivedKey);
      flags.remove(sessionStorageKeys.encryptionInitialized);
      if (state.status !== 'not-initialised') publish(NOT_INITIALISED);
      try {
        if (options.everywhere === true) await keyStore.deleteAll();
        else if (handle !== null) await keyStore.delete(handle);
      } catch (error) {
        onBackgroundError(error);
      }
    },

    async reset() {
      const keys = await deps.keys.list();
      for (const key of keys) await deps.keys.delete(key.keyId);
      await session.clear();
      flags.set(sessionStorageKeys.needsNewEncryption, 'true');
    },

    async changePassword(oldPassword, newPassword) {
      assertValidPassword(newPassword);
      const keys = await deps.keys.list();
      if (keys.length === 0) throw new KeysNotFoundError();
      const active = await fetchActiveKey();
      const ordered = [active, ...keys.filter((key) => key.keyId !== active.keyId)];
      const entries: WrappedKeyEntry[] = [];
      for (const [index, record] of ordered.entries()) {
        try {
          const rewrapped = await rewrapUserKeys(
            oldPassword,
            newPassword,
            record.encryptedPrivateKey,
            record.encryptedSigningKey,
            wrapOptions,
          );
          entries.push({ keyId: record.keyId, ...rewrapBody(rewrapped) });
        } catch (error) {
          if (!(error instanceof WrongPasswordError)) throw error;
          // The newest key must open; an older leftover under another password goes back as it is
          // (the call takes exactly the caller's records).
          if (index === 0) throw new WrongOldPasswordError({ cause: error });
          entries.push(entryOf(record));
        }
      }
      await deps.keys.rewrapAll({ keys: entries });
      rememberRevs(entries);
    },

    async recoveryKitStatus() {
      const kit = await deps.keys.recoveryKit();
      return kit === null ? null : { kitId: kit.kitId, createdAt: kit.createdAt };
    },

    async createRecoveryKit(password) {
      const records = await deps.keys.list();
      if (records.length === 0) throw new KeysNotFoundError();
      const kit = await newRecoveryKit();
      let body;
      try {
        body = await createRecoveryWraps(password, records, kit);
      } catch (error) {
        if (error instanceof WrongPasswordError) throw new WrongOldPasswordError({ cause: error });
        throw error;
      }
      await deps.keys.putRecoveryKit(body);
      return { words: kit.words, kitId: kit.kitId };
    },

    async checkRecoveryWords(words) {
      await servedKitFor(recoverySecretOf(words));
    },

    async recover(words, newPassword) {
      const secretBytes = recoverySecretOf(words);
      assertValidPassword(newPassword);
      const kit = await servedKitFor(secretBytes);
      const records = await deps.keys.list();
      if (records.length === 0) throw new KeysNotFoundError();
      let recovered;
      try {
        recovered = await recoverUserKeys(secretBytes, records, kit, newPassword, wrapOptions);
      } catch (error) {
        // The kit id matched, so the words are right: a wrap that does not open was altered.
        if (error instanceof RecoveryKitMismatchError) {
          throw new KeysTamperedError(RECOVERY_WRAP_REFUSED, { cause: error });
        }
        throw error;
      }
      await deps.keys.rewrapAll({ keys: recovered.map(entryOf) });
      rememberRevs(recovered);
      flags.remove(sessionStorageKeys.needsNewEncryption);
      // Unlocking with the new key runs the usual checks of the served keys (issue 13).
      await session.unlock(newPassword);
    },
  };

  /** The kit the server holds, if these words are its own. */
  async function servedKitFor(secretBytes: Uint8Array): Promise<RecoveryKitRecord> {
    const kit = await deps.keys.recoveryKit();
    if (kit === null) throw new NoRecoveryKitError();
    if ((await recoveryKitId(secretBytes)) !== kit.kitId) throw new RecoveryKitReplacedError();
    return kit;
  }
  return session;
}

/** Said when the server's recovery wraps do not open with the right words. */
const RECOVERY_WRAP_REFUSED =
  'The recovery kit the server holds does not open your keys: it was altered. Nothing was changed.';

/** A key record's wrapped keys, as PUT /users/keys takes them. */
function entryOf(record: WrappedKeyEntry): WrappedKeyEntry {
  return record.encryptedSigningKey === undefined
    ? { keyId: record.keyId, encryptedPrivateKey: record.encryptedPrivateKey }
    : {
        keyId: record.keyId,
        encryptedPrivateKey: record.encryptedPrivateKey,
        encryptedSigningKey: record.encryptedSigningKey,
      };
}

/** The secret of typed recovery words, or a message saying what is wrong with them. */
function recoverySecretOf(words: string): Uint8Array<ArrayBuffer> {
  try {
    return recoveryWordsToSecret(words);
  } catch (error) {
    if (!(error instanceof RecoveryWordsError)) throw error;
    throw new RecoveryWordsInvalidError(recoveryWordsProblem(words), { cause: error });
  }
}

/** Words as the recovery kit reads them: letters only; numbers, commas and line breaks separate. */
export function recoveryWordCount(words: string): number {
  return words
    .toLowerCase()
    .split(/[^a-z]+/u)
    .filter((word) => word.length > 0).length;
}

function recoveryWordsProblem(words: string): string {
  const count = recoveryWordCount(words);
  if (count !== RECOVERY_WORD_COUNT) {
    return `A recovery kit has ${RECOVERY_WORD_COUNT} words. You entered ${count}.`;
  }
  return 'These words do not match a recovery kit. Check the spelling and order of each word.';
}

/** Words in a recovery kit (256 bits, BIP-39). */
export const RECOVERY_WORD_COUNT = 24;

function rewrapBody(rewrapped: {
  encryptedPrivateKeyJson: string;
  encryptedSigningKeyJson?: string;
}): RewrapKeyRequest {
  return rewrapped.encryptedSigningKeyJson === undefined
    ? { encryptedPrivateKey: rewrapped.encryptedPrivateKeyJson }
    : {
        encryptedPrivateKey: rewrapped.encryptedPrivateKeyJson,
        encryptedSigningKey: rewrapped.encryptedSigningKeyJson,
      };
}

/** Wrong password → the spec's unlock failure; a tampered record → KeysTamperedError saying why. */
function tamperedOr(error: unknown): unknown {
  if (error instanceof WrongPasswordError) return new UnlockFailedError({ cause: error });
  if (
    error instanceof KdfDowngradeError ||
    error instanceof KeyMismatchError ||
    error instanceof KeyRollbackError
  ) {
    return new KeysTamperedError(trustErrorMessage(error) ?? error.message, { cause: error });
  }
  return error;
}

/** `KEYS_NOT_FOUND` answers (no key on the server), recognised by the error's `code`. */
function isKeysNotFound(error: unknown): boolean {
  return errorCode(error) === 'KEYS_NOT_FOUND';
}

/** Retrying cannot help a caller whose token is not accepted. */
function isAuthError(error: unknown): boolean {
  const status = (error as { status?: unknown } | null)?.status;
  return status === 401 || status === 403;
}

function errorCode(error: unknown): unknown {
  return typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
}
