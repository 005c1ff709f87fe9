/** A fake `ApiClient` for component tests: answers from handlers keyed by 'METHOD /path'. */
import { ApiRequestError, type ApiClient, type RequestOptions } from '../lib/api/http';

export interface RecordedCall {
  method: string;
  path: string;
  body: unknown;
}

type Handler = (call: RecordedCall) => unknown;

/** Answers from handlers keyed by 'METHOD /path' (a handler may throw an `ApiRequestError`), and records every call. */
export interface FakeApi extends ApiClient {
  readonly calls: RecordedCall[];
  on(key: string, handler: Handler): FakeApi;
  callsTo(key: string): RecordedCall[];
}

/** An API error answer with the server's `{code, message}` body. */
export function apiError(status: number, code: string, message = code): ApiRequestError {
  return new ApiRequestError(status, JSON.stringify({ code, message }));
}

export function createFakeApi(handlers: Record<string, Handler> = {}): FakeApi {
  const table = new Map(Object.entries(handlers));
  const calls: RecordedCall[] = [];
  const api: FakeApi = {
    calls,
    on(key, handler) {
      table.set(key, handler);
      return api;
    },
    callsTo(key) {
      return calls.filter((call) => `${call.method} ${call.path}` === key);
    },
    async request<T>(method: string, path: string, options?: RequestOptions): Promise<T> {
      const call = { method, path, body: options?.body };
      calls.push(call);
      const handler = table.get(`${method} ${path}`);
      // Answers arrive asynchronously, as over the network.
      await Promise.resolve();
      if (handler === undefined) throw apiError(404, 'NOT_FOUND', `No fake answer for ${method} ${path}`);
      return handler(call) as T;
    },
    fetchRaw() {
      return Promise.reject(new Error('fetchRaw is not faked'));
    },
    authHeaders() {
      return Promise.resolve({ Authorization: 'Bearer test' });
    },
    reportUnauthorized() {
      calls.push({ method: 'REPORT', path: 'unauthorized', body: undefined });
    },
  };
  return api;
}
