/**
 * Typed calls of the API (spec section 7), one function per endpoint; types come from the contracts
 * package, the single source the server validates with. File and upload calls live with the transfer code.
 */
import type {
  AddContactRequest,
  CheckoutRequest,
  Contact,
  ContactsResponse,
  CreateKeyRequest,
  FeedbackListResponse,
  KeyRecord,
  KeysResponse,
  OkResponse,
  PortalRequest,
  PublicKeyResponse,
  RedirectUrlResponse,
  StatsResponse,
} from '@coffer/contracts';
import type { ApiClient } from './http';
import { seg } from './http';

export interface ClientConfig {
  oidc: { authority: string; clientId: string; scopes: string; resource: string | null };
}

/** Public run-time settings (no token needed). */
export async function fetchClientConfig(fetchImpl: typeof fetch = fetch): Promise<ClientConfig> {
  const response = await fetchImpl('/api/config');
  if (!response.ok) throw new Error(`Could not load the app settings (${response.status})`);
  return (await response.json()) as ClientConfig;
}

export const keysApi = {
  create: (api: ApiClient, body: CreateKeyRequest) => api.request<KeyRecord>('POST', '/users/keys', { body }),
  list: async (api: ApiClient) => (await api.request<KeysResponse>('GET', '/users/keys')).keys,
  active: (api: ApiClient) => api.request<KeyRecord>('GET', '/users/keys/active'),
  delete: (api: ApiClient, keyId: string) => api.request<OkResponse>('DELETE', `/users/keys/${seg(keyId)}`),
  rewrap: (api: ApiClient, keyId: string, encryptedPrivateKey: string) =>
    api.request<KeyRecord>('PUT', `/users/keys/${seg(keyId)}`, { body: { encryptedPrivateKey } }),
  publicKeyOf: (api: ApiClient, email: string) =>
    api.request<PublicKeyResponse>('GET', `/users/keys/public/${seg(email)}`),
};

export const contactsApi = {
  list: async (api: ApiClient) => (await api.request<ContactsResponse>('GET', '/users/contacts')).contacts,
  add: (api: ApiClient, body: AddContactRequest) => api.request<Contact>('POST', '/users/contacts', { body }),
  rename: (api: ApiClient, email: string, name: string) =>
    api.request<Contact>('PATCH', `/users/contacts/${seg(email)}`, { body: { name } }),
  delete: (api: ApiClient, email: string) =>
    api.request<OkResponse>('DELETE', `/users/contacts/${seg(email)}`),
  invite: (api: ApiClient, to: string) =>
    api.request<OkResponse>('POST', '/users/invitations', { body: { to } }),
};

export const statsApi = {
  get: (api: ApiClient) => api.request<StatsResponse>('GET', '/users/stats'),
};

export const feedbackApi = {
  send: (api: ApiClient, message: string) =>
    api.request<OkResponse>('POST', '/feedback', { body: { message } }),
  list: async (api: ApiClient) =>
    (await api.request<FeedbackListResponse>('GET', '/admin/feedback')).feedback,
  delete: (api: ApiClient, id: string) => api.request<OkResponse>('DELETE', `/admin/feedback/${seg(id)}`),
};

export const paymentsApi = {
  portal: (api: ApiClient, body: PortalRequest) =>
    api.request<RedirectUrlResponse>('POST', '/payments/portal', { body }),
  checkout: (api: ApiClient, body: CheckoutRequest) =>
    api.request<RedirectUrlResponse>('POST', '/payments/checkout', { body }),
};
