/**
 * Avatar colours. The server (a contact's colour) and the web app (the signed-in person's colour)
 * pick from this one palette, so every avatar in the app comes from the same set.
 */
export const AVATAR_PALETTE = [
  '#1c7ed6',
  '#0ca678',
  '#f08c00',
  '#ae3ec9',
  '#e03131',
  '#1098ad',
  '#5c7cfa',
  '#d6336c',
] as const;

/** The palette colour for a hash of an email (any non-negative integer). */
export function avatarColorFor(hash: number): string {
  return AVATAR_PALETTE[hash % AVATAR_PALETTE.length] ?? AVATAR_PALETTE[0];
}
