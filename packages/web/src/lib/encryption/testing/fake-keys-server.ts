import type {
  AddSigningKeyRequest,
  CreateKeyRequest,
  KeyRecord,
  PutDriveKeyRequest,
  RewrapKeyRequest,
} from '@coffer/contracts';
import type { PutRecoveryKitRequest, RecoveryKitRecord, RewrapAllKeysRequest } from '../../api/keys-recovery';
import type { KeysPort } from '../encryption-session';

/** An error shaped like `ApiRequestError` (status and code), without the HTTP layer. */
export class FakeApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
  ) {
    super(`API request failed: {"code":"${code}"}`);
    this.name = 'FakeApiError';
  }
}

/**
 * The server's key endpoints in memory (list newest first, active = newest, 404 KEYS_NOT_FOUND),
 * with a log of calls and a hook to fail the next calls of `active()`.
 */
export class FakeKeysServer implements KeysPort {
  records: KeyRecord[] = [];
  readonly calls: string[] = [];
  /** `active()` throws this many times before answering. */
  failActive = 0;
  /** `addSigningKey()` answers 500 this many times before storing. */
  failAddSigningKey = 0;
  private nextId = 1;
  private clock = Date.parse('2026-01-01T00:00:00Z');

  list(): Promise<KeyRecord[]> {
    this.calls.push('GET /users/keys');
    return Promise.resolve([...this.records].reverse());
  }

  active(): Promise<KeyRecord> {
    this.calls.push('GET /users/keys/active');
    if (this.failActive > 0) {
      this.failActive -= 1;
      return Promise.reject(new FakeApiError(503, 'UNAVAILABLE'));
    }
    const newest = this.records.at(-1);
    return newest === undefined
      ? Promise.reject(new FakeApiError(404, 'KEYS_NOT_FOUND'))
      : Promise.resolve(newest);
  }

  create(body: CreateKeyRequest): Promise<KeyRecord> {
    this.calls.push('POST /users/keys');
    this.clock += 1000;
    const { keyId, ...fields } = body;
    const record: KeyRecord = {
      keyId: keyId ?? `key-${this.nextId++}`,
      ...fields,
      createdAt: new Date(this.clock).toISOString(),
    };
    this.records.push(record);
    return Promise.resolve(record);
  }

  delete(keyId: string): Promise<unknown> {
    this.calls.push(`DELETE /users/keys/${keyId}`);
    const before = this.records.length;
    this.records = this.records.filter((record) => record.keyId !== keyId);
    return this.records.length === before
      ? Promise.reject(new FakeApiError(404, 'KEYS_NOT_FOUND'))
      : Promise.resolve({ ok: true });
  }

  rewrap(keyId: string, body: RewrapKeyRequest): Promise<KeyRecord> {
    this.calls.push(`PUT /users/keys/${keyId}`);
    const record = this.records.find((candidate) => candidate.keyId === keyId);
    if (record === undefined) return Promise.reject(new FakeApiError(404, 'KEYS_NOT_FOUND'));
    record.encryptedPrivateKey = body.encryptedPrivateKey;
    if (body.encryptedSigningKey !== undefined) record.encryptedSigningKey = body.encryptedSigningKey;
    return Promise.resolve(record);
  }

  rewrapAll(body: RewrapAllKeysRequest): Promise<KeyRecord[]> {
    this.calls.push('PUT /users/keys');
    const ids = body.keys.map((entry) => entry.keyId).sort();
    const own = this.records.map((record) => record.keyId).sort();
    if (ids.join('\n') !== own.join('\n')) return Promise.reject(new FakeApiError(409, 'CONFLICT'));
    for (const entry of body.keys) {
      const record = this.records.find((candidate) => candidate.keyId === entry.keyId);
      if (record === undefined) continue;
      record.encryptedPrivateKey = entry.encryptedPrivateKey;
      if (entry.encryptedSigningKey !== undefined) record.encryptedSigningKey = entry.encryptedSigningKey;
    }
    return Promise.resolve([...this.records].reverse());
  }

  /** The recovery kit held, as the server keeps it. */
  recovery: RecoveryKitRecord | null = null;

  recoveryKit(): Promise<RecoveryKitRecord | null> {
    this.calls.push('GET /users/keys/recovery');
    return Promise.resolve(this.recovery === null ? null : structuredClone(this.recovery));
  }

  putRecoveryKit(body: PutRecoveryKitRequest): Promise<unknown> {
    this.calls.push('PUT /users/keys/recovery');
    this.clock += 1000;
    this.recovery = { ...structuredClone(body), createdAt: new Date(this.clock).toISOString() };
    return Promise.resolve({ ok: true });
  }

  addSigningKey(keyId: string, body: AddSigningKeyRequest): Promise<KeyRecord> {
    this.calls.push(`PUT /users/keys/${keyId}/signing`);
    if (this.failAddSigningKey > 0) {
      this.failAddSigningKey -= 1;
      return Promise.reject(new FakeApiError(500, 'INTERNAL'));
    }
    const record = this.records.find((candidate) => candidate.keyId === keyId);
    if (record === undefined) return Promise.reject(new FakeApiError(404, 'KEYS_NOT_FOUND'));
    if (record.signingPublicKey !== undefined) return Promise.reject(new FakeApiError(409, 'CONFLICT'));
    Object.assign(record, body);
    return Promise.resolve(record);
  }

  putDriveKey(keyId: string, body: PutDriveKeyRequest): Promise<KeyRecord> {
    this.calls.push(`PUT /users/keys/${keyId}/drive-key`);
    const record = this.records.find((candidate) => candidate.keyId === keyId);
    if (record === undefined) return Promise.reject(new FakeApiError(404, 'KEYS_NOT_FOUND'));
    if (record.wrappedDriveKey !== undefined) return Promise.reject(new FakeApiError(409, 'CONFLICT'));
    record.wrappedDriveKey = body.wrappedDriveKey;
    record.driveKeyRecord = body.driveKeyRecord;
    return Promise.resolve(record);
  }
}

/** A `Storage` in memory (one per simulated tab). */
export class MemoryStorage implements Storage {
  private readonly items = new Map<string, string>();
  get length(): number {
    return this.items.size;
  }
  clear(): void {
    this.items.clear();
  }
  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }
  key(index: number): string | null {
    return [...this.items.keys()][index] ?? null;
  }
  removeItem(key: string): void {
    this.items.delete(key);
  }
  setItem(key: string, value: string): void {
    this.items.set(key, value);
  }
  entries(): [string, string][] {
    return [...this.items.entries()];
  }
}
