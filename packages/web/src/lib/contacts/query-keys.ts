/**
 * TanStack Query keys of the contact list and what depends on it. Other screens (sharing) read and
 * invalidate the same entries, so they live in one place. Separate roots: invalidating the list
 * after a mutation does not refetch every contact's public key.
 */
export const contactQueryKeys = {
  list: ['contacts'] as const,
  /** GET /users/keys/public/{email}; the server stores emails lower-case. */
  publicKey: (email: string) => ['public-key', email.toLowerCase()] as const,
  fingerprint: (publicKeyB64: string) => ['public-key-fingerprint', publicKeyB64] as const,
};

/** GET /users/stats: the Profile limits card and the contact limit read it. */
export const statsQueryKey = ['stats'] as const;
