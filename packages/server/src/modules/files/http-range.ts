/**
 * A `Range` request header resolved against the size of the object (RFC 9110 §14). One range only:
 * a multi-range request, another unit or a malformed header is ignored (the whole object is sent),
 * which the RFC allows and every resuming client copes with.
 */
export type ResolvedRange =
  | { kind: 'whole' }
  /** Inclusive byte positions, both inside the object. */
  | { kind: 'partial'; start: number; end: number }
  | { kind: 'unsatisfiable' };

const SINGLE_BYTE_RANGE = /^bytes=(\d*)-(\d*)$/i;

export function resolveRangeHeader(header: string | undefined, totalSize: number): ResolvedRange {
  if (header === undefined) return { kind: 'whole' };
  const match = SINGLE_BYTE_RANGE.exec(header.trim());
  if (match === null) return { kind: 'whole' };
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return { kind: 'whole' };
  if (first === '') {
    // `-n`: the last n bytes.
    const suffix = Number(last);
    if (suffix === 0 || totalSize === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', start: Math.max(0, totalSize - suffix), end: totalSize - 1 };
  }
  const start = Number(first);
  const end = last === '' ? totalSize - 1 : Number(last);
  if (end < start || start >= totalSize) return { kind: 'unsatisfiable' };
  return { kind: 'partial', start, end: Math.min(end, totalSize - 1) };
}
