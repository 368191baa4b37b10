// How the playground and the e2e pages resolve `mockyard` / `mockyard/browser` / `mockyard/tracker`: to the built package
// (`dist`, what users get) or to the TypeScript sources (`src`, for `npm run playground` with HMR).
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** @param {'dist' | 'src'} from */
export function mockyardAliases(from) {
  const file = (sub) => (from === 'src' ? `${root}src/${sub}.ts` : `${root}dist/${sub}.js`);
  return [
    { find: /^mockyard\/browser$/, replacement: file('browser/index') },
    { find: /^mockyard\/tracker$/, replacement: file('tracker/client-entry') },
    { find: /^mockyard$/, replacement: file('index') },
  ];
}
