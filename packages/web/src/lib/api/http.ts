import { apiRequestFailedText, parseErrorBody } from '@coffer/contracts';

/**
 * A non-ok answer of the API. Its message is the spec's 'API request failed: ' followed by the
 * response text; `code` and `serverMessage` are parsed from the `{code, message}` body when there is one.
 */
export class ApiRequestError extends Error {
  readonly code: string | null;
  readonly serverMessage: string | null;
  constructor(
    readonly status: number,
    readonly responseText: string,
  ) {
    super(apiRequestFailedText(responseText));
    this.name = 'ApiRequestError';
    const body = parseErrorBody(responseText);
    this.code = body?.code ?? null;
    this.serverMessage = body?.message ?? null;
  }
}

export interface ApiClientOptions {
  /** Origin-relative by default: the server serves the app and the API together. */
  baseUrl?: string;
  /** The identity provider's current access token, or null when signed out. */
  getAccessToken: () => Promise<string | null>;
  /** Called on a 401 answer (e.g. to start logout when the token cannot be renewed). */
  onUnauthorized?: () => void;
  fetchImpl?: typeof fetch;
}

export interface RequestOptions {
  body?: unknown;
  signal?: AbortSignal;
  /** Extra headers (e.g. Range). */
  headers?: Record<string, string>;
}

export interface ApiClient {
  /** JSON request and JSON answer. */
  request<T>(method: string, path: string, options?: RequestOptions): Promise<T>;
  /** The raw Response of an ok answer (downloads stream from it); throws ApiRequestError otherwise. */
  fetchRaw(
    method: string,
    path: string,
    options?: RequestOptions & { rawBody?: BodyInit },
  ): Promise<Response>;
  /** The bearer header for transports that do not go through fetch (XHR uploads). */
  authHeaders(): Promise<Record<string, string>>;
  /**
   * For those transports (and streamed downloads): the server answered 401 to a request made with
   * `authHeaders()`, so the session reacts as to any other 401 (renew the token, else sign out).
   */
  reportUnauthorized(): void;
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  const base = (options.baseUrl ?? '/api').replace(/\/$/, '');
  const doFetch = options.fetchImpl ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));

  async function authHeaders(): Promise<Record<string, string>> {
    const token = await options.getAccessToken();
    return token === null ? {} : { Authorization: `Bearer ${token}` };
  }

  async function fetchRaw(
    method: string,
    path: string,
    opts: RequestOptions & { rawBody?: BodyInit } = {},
  ): Promise<Response> {
    const headers: Record<string, string> = { ...(await authHeaders()), ...opts.headers };
    let body: BodyInit | undefined = opts.rawBody;
    if (opts.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(opts.body);
    }
    const response = await doFetch(`${base}${path}`, { method, headers, body, signal: opts.signal });
    if (!response.ok) {
      const text = await response.text().catch(() => '');
      if (response.status === 401) options.onUnauthorized?.();
      throw new ApiRequestError(response.status, text);
    }
    return response;
  }

  return {
    fetchRaw,
    authHeaders,
    reportUnauthorized: () => {
      options.onUnauthorized?.();
    },
    async request<T>(method: string, path: string, opts?: RequestOptions): Promise<T> {
      const response = await fetchRaw(method, path, opts);
      if (response.status === 204) return undefined as T;
      return (await response.json()) as T;
    },
  };
}

/** Path segment encoding for ids and emails in URLs (`/users/contacts/{email}`). */
export function seg(value: string): string {
  return encodeURIComponent(value);
}
