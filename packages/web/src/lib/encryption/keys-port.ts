import type { ApiClient } from '../api/http';
import { keysApi } from '../api/endpoints';
import { keysRecoveryApi } from '../api/keys-recovery';
import type { KeysPort } from './encryption-session';

/** The encryption session's server calls, through the app's API client. */
export function keysPortFrom(api: ApiClient): KeysPort {
  return {
    list: () => keysApi.list(api),
    active: () => keysApi.active(api),
    create: (body) => keysApi.create(api, body),
    delete: (keyId) => keysApi.delete(api, keyId),
    rewrap: (keyId, body) => keysApi.rewrap(api, keyId, body),
    addSigningKey: (keyId, body) => keysApi.addSigningKey(api, keyId, body),
    putDriveKey: (keyId, body) => keysApi.putDriveKey(api, keyId, body),
    rewrapAll: (body) => keysRecoveryApi.rewrapAll(api, body),
    recoveryKit: () => keysRecoveryApi.recoveryKit(api),
    putRecoveryKit: (body) => keysRecoveryApi.putRecoveryKit(api, body),
  };
}
