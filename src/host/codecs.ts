/**
 * Installs a runtime's codecs (runtime.ts) process-wide. Its own module so that hosts whose runtime
 * has none (the page, `mockyard/fetch`) never load the codec modules at start-up: createHost
 * imports it only for a runtime that brings codecs; the Node entry imports it directly.
 */
import { setBoundedSyncInflate } from '../core/inflate-bounded.js';
import { setCrc32, setRawSyncDeflate } from '../tracker/gzip-pieces.js';
import type { Runtime } from './runtime.js';

/** Installs `runtime`'s codecs (the ones it has; the others keep their current implementation). */
export function useCodecs(runtime: Runtime): void {
  if (runtime.inflate) setBoundedSyncInflate(runtime.inflate);
  if (runtime.deflateRaw) setRawSyncDeflate(runtime.deflateRaw);
  if (runtime.crc32) setCrc32(runtime.crc32);
}
