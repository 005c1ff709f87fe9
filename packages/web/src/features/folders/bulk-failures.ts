/** Names listed in a bulk action's failure before "and N more". */
const NAMES_SHOWN = 5;

/**
 * The snackbar of a bulk action where some items failed (issue 31): which ones, by their decrypted
 * names (already neutralised for display by lib/drive), and that they stay selected for a retry.
 */
export function failedItemsText(
  action: 'delete' | 'move' | 'download',
  failed: readonly { readonly name: string }[],
  total: number,
): string {
  const shown = failed.slice(0, NAMES_SHOWN).map((item) => `“${item.name}”`);
  const more = failed.length - shown.length;
  const names = more > 0 ? `${shown.join(', ')} and ${more} more` : shown.join(', ');
  const they = failed.length === 1 ? 'It stays' : 'They stay';
  return `Could not ${action} ${failed.length} of ${total} ${total === 1 ? 'item' : 'items'}: ${names}. ${they} selected.`;
}
