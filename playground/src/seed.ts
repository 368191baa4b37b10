/**
 * The in-page seed is the node host's demo folder, playground/mocks, bundled by Vite: one source
 * of truth for both hosts. Text files arrive as text, binary files (images…) as bytes.
 */
import type { SeedTree } from 'mockyard/browser';

const text = import.meta.glob<string>('../mocks/**/*.{json,txt,md,csv,xml,html}', { eager: true, query: '?raw', import: 'default' });
const binary = import.meta.glob<string>('../mocks/**/*.{png,jpg,jpeg,gif,webp,ico,pdf}', { eager: true, query: '?inline', import: 'default' });

function dataUrlBytes(url: string): Uint8Array {
  const base64 = url.slice(url.indexOf(',') + 1);
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

const rel = (path: string) => path.replace(/^\.\.\/mocks\//, '');

export const seed: SeedTree = {
  ...Object.fromEntries(Object.entries(text).map(([path, content]) => [rel(path), content])),
  ...Object.fromEntries(Object.entries(binary).map(([path, url]) => [rel(path), dataUrlBytes(url)])),
};
