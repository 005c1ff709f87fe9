import { createContext, useContext } from 'react';
import type { ApiClient } from './http';

export const ApiClientContext = createContext<ApiClient | null>(null);

/** The API client of the signed-in session (provided by the app's session providers). */
export function useApiClient(): ApiClient {
  const client = useContext(ApiClientContext);
  if (client === null) throw new Error('useApiClient must be used inside ApiClientContext');
  return client;
}
