/**
 * One `Range: bytes=…` header against a body of `size` bytes (RFC 9110 §14): a single range
 * (`a-b`, `a-`, `-n`); several ranges or another unit are answered whole (allowed by the RFC).
 */
export type RangeAnswer = { kind: 'whole' } | { kind: 'part'; start: number; end: number } | { kind: 'unsatisfiable' };

export function parseRange(header: string | null, size: number): RangeAnswer {
  if (header === null) return { kind: 'whole' };
  const m = /^bytes=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return { kind: 'whole' };
  let start: number;
  let end: number;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0) return { kind: 'unsatisfiable' };
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
    if (m[2] !== '' && Number(m[2]) < start) return { kind: 'whole' }; // invalid: ignored
  }
  if (start >= size) return { kind: 'unsatisfiable' };
  return { kind: 'part', start, end };
}
