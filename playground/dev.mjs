// `npm run playground`: writes the worker script into playground/public (what
// `mockyard init-worker playground/public` does) and starts the Vite dev server.
// Run `npm start` in another terminal to use the "Node host" switch.
import { readFile, mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer } from 'vite';

const require = createRequire(import.meta.url);
const publicDir = new URL('./public/', import.meta.url);
await mkdir(publicDir, { recursive: true });
await writeFile(new URL('mockServiceWorker.js', publicDir), await readFile(require.resolve('msw/mockServiceWorker.js')));

const server = await createServer({ configFile: new URL('./vite.config.mjs', import.meta.url).pathname });
await server.listen();
server.printUrls();
