import type { ApiClient, ApiClientOptions } from '../api/http';
import { createApiClient, seg } from '../api/http';
import type { LinkDownloadSession } from './link-session';
import type {
  CreateLinkBody,
  CreateRequestBody,
  LinksResponse,
  OpenedLinkAnswer,
  OwnerLink,
  PublicLinkInfo,
  PublicRequestInfo,
  UpdateLinkBody,
  UpdateRequestBody,
} from './link-wire';

/** The owner's calls (signed in, bearer token). */
export const linksApi = {
  create: (api: ApiClient, body: CreateLinkBody) =>
    api.request<{ linkId: string }>('POST', '/users/links', { body }),
  /** Every link and request of mine, or one file's links (and no requests). */
  list: (api: ApiClient, fileId?: string) =>
    api.request<LinksResponse>(
      'GET',
      fileId === undefined ? '/users/links' : `/users/links?fileId=${seg(fileId)}`,
    ),
  update: (api: ApiClient, linkId: string, body: UpdateLinkBody) =>
    api.request<OwnerLink>('PATCH', `/users/links/${seg(linkId)}`, { body }),
  revoke: (api: ApiClient, linkId: string) => api.request<unknown>('DELETE', `/users/links/${seg(linkId)}`),
  createRequest: (api: ApiClient, body: CreateRequestBody) =>
    api.request<{ linkId: string }>('POST', '/users/requests', { body }),
  deleteRequest: (api: ApiClient, requestId: string) =>
    api.request<unknown>('DELETE', `/users/requests/${seg(requestId)}`),
  updateRequest: (api: ApiClient, requestId: string, body: UpdateRequestBody) =>
    api.request<unknown>('PATCH', `/users/requests/${seg(requestId)}`, { body }),
};

/**
 * The API client of a link or request page: no bearer token; once the auth key is known, every call
 * (and the download service worker's content requests, through `authHeaders`) carries
 * `X-Link-Auth`, and with a download session its `X-Link-Download`. A 401 here is a wrong password,
 * not a lost session: nothing to report.
 */
export function createLinkClient(
  authKeyB64url: string | null,
  options: Pick<ApiClientOptions, 'fetchImpl' | 'baseUrl'> = {},
  session?: LinkDownloadSession,
): ApiClient {
  const inner = createApiClient({ ...options, getAccessToken: () => Promise.resolve(null) });
  const linkHeaders = (): Record<string, string> => ({
    ...session?.headers(),
    ...(authKeyB64url === null ? {} : { 'X-Link-Auth': authKeyB64url }),
  });
  return {
    request: (method, path, opts = {}) =>
      inner.request(method, path, { ...opts, headers: { ...linkHeaders(), ...opts.headers } }),
    fetchRaw: (method, path, opts = {}) =>
      inner.fetchRaw(method, path, { ...opts, headers: { ...linkHeaders(), ...opts.headers } }),
    authHeaders: () => Promise.resolve(linkHeaders()),
    reportUnauthorized: () => undefined,
  };
}

/** The recipient's calls (`/api/public/…`). */
export const publicLinksApi = {
  info: (client: ApiClient, linkId: string) =>
    client.request<PublicLinkInfo>('GET', `/public/links/${seg(linkId)}`),
  open: (client: ApiClient, linkId: string) =>
    client.request<OpenedLinkAnswer>('POST', `/public/links/${seg(linkId)}/open`),
  downloadPath: (linkId: string, fileId: string) =>
    `/public/links/${seg(linkId)}/files/${seg(fileId)}/download`,
  request: (client: ApiClient, requestId: string) =>
    client.request<PublicRequestInfo>('GET', `/public/requests/${seg(requestId)}`),
};
