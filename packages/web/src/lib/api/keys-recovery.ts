/**
 * The key calls of issue 29: re-wrapping every key record at once (a change of master unlock key, or
 * a recovery) and the recovery kit's wraps. The shapes follow the server's (`PUT /users/keys`,
 * `/users/keys/recovery`); the server validates them with the contracts' schemas.
 */
import type { KeysResponse, OkResponse } from '@coffer/contracts';
import { ApiRequestError, type ApiClient } from './http';

/** One key record's password-wrapped private keys, as `PUT /users/keys` takes them. */
export interface WrappedKeyEntry {
  keyId: string;
  encryptedPrivateKey: string;
  encryptedSigningKey?: string;
}

/** `PUT /users/keys`: exactly the caller's records, re-wrapped; 409 otherwise. */
export interface RewrapAllKeysRequest {
  keys: WrappedKeyEntry[];
}

/** One key record's private keys wrapped under the recovery secret. */
export type RecoveryWrapEntry = WrappedKeyEntry;

/** `PUT /users/keys/recovery`: a new kit, replacing the previous one. */
export interface PutRecoveryKitRequest {
  kitId: string;
  wraps: RecoveryWrapEntry[];
}

/** `GET /users/keys/recovery`: the kit the server holds. */
export interface RecoveryKitRecord extends PutRecoveryKitRequest {
  createdAt: string;
}

export const keysRecoveryApi = {
  rewrapAll: async (api: ApiClient, body: RewrapAllKeysRequest) =>
    (await api.request<KeysResponse>('PUT', '/users/keys', { body })).keys,
  /** The recovery kit, or null when the person has none (404). */
  recoveryKit: async (api: ApiClient): Promise<RecoveryKitRecord | null> => {
    try {
      return await api.request<RecoveryKitRecord>('GET', '/users/keys/recovery');
    } catch (error) {
      if (error instanceof ApiRequestError && error.status === 404) return null;
      throw error;
    }
  },
  putRecoveryKit: (api: ApiClient, body: PutRecoveryKitRequest) =>
    api.request<OkResponse>('PUT', '/users/keys/recovery', { body }),
  deleteRecoveryKit: (api: ApiClient) => api.request<OkResponse>('DELETE', '/users/keys/recovery'),
};
