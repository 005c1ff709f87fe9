/** TanStack Query keys of the links screen and the per-file links panel. */
export const linkQueryKeys = {
  all: ['links'] as const,
  list: () => ['links', 'all'] as const,
  ofFile: (fileId: string) => ['links', 'file', fileId] as const,
};
