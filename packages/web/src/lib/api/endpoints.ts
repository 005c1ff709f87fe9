/**
 * Typed calls of the API (spec section 7), one function per endpoint; types come from the contracts
 * package, the single source the server validates with. File and upload calls live with the transfer code.
 */
import type {
  AddContactRequest,
  AddSigningKeyRequest,
  PinSetResponse,
  PutPinSetRequest,
  RewrapKeyRequest,
  CheckoutRequest,
  Contact,
  ContactsResponse,
  CreateKeyRequest,
  FeedbackListResponse,
  KeyRecord,
  KeysResponse,
  MeResponse,
  OkResponse,
  PortalRequest,
  PublicKeyResponse,
  PutDriveKeyRequest,
  ReceivedInvitationsResponse,
  RedirectUrlResponse,
  StatsResponse,
} from '@coffer/contracts';
import type { ApiClient } from './http';
import { seg } from './http';

export interface ClientConfig {
  oidc: { authority: string; clientId: string; scopes: string; resource: string | null };
  /** The embedded provider's security page (factors, sessions); null or absent with an external issuer. */
  identity?: { accountSecurityUrl: string | null };
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
  rewrap: (api: ApiClient, keyId: string, body: RewrapKeyRequest) =>
    api.request<KeyRecord>('PUT', `/users/keys/${seg(keyId)}`, { body }),
  addSigningKey: (api: ApiClient, keyId: string, body: AddSigningKeyRequest) =>
    api.request<KeyRecord>('PUT', `/users/keys/${seg(keyId)}/signing`, { body }),
  putDriveKey: (api: ApiClient, keyId: string, body: PutDriveKeyRequest) =>
    api.request<KeyRecord>('PUT', `/users/keys/${seg(keyId)}/drive-key`, { body }),
  publicKeyOf: (api: ApiClient, email: string) =>
    api.request<PublicKeyResponse>('GET', `/users/keys/public/${seg(email)}`),
};

export const pinsApi = {
  get: async (api: ApiClient) => (await api.request<PinSetResponse>('GET', '/users/pins')).pinSet,
  put: (api: ApiClient, body: PutPinSetRequest) => api.request<OkResponse>('PUT', '/users/pins', { body }),
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
  /** Who invited me, with their names (the invite page prefills the inviter's). */
  receivedInvitations: async (api: ApiClient) =>
    (await api.request<ReceivedInvitationsResponse>('GET', '/users/invitations/received')).invitations,
};

export const usersApi = {
  /** Who the server takes the caller to be, from the access token: email, verified, admin. */
  me: (api: ApiClient) => api.request<MeResponse>('GET', '/users/me'),
  /** Sends the verification mail again (429 RATE_LIMITED when asked too often). */
  resendVerificationEmail: (api: ApiClient) =>
    api.request<OkResponse>('POST', '/users/me/verification-email'),
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
