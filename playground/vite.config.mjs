// `npm run playground`: the Vite dev server for the playground. In-page mode needs nothing else;
// "Node host" mode reaches the mockyard CLI (`npm start`, same mocks module) through this proxy
// on the same paths, so the app code is identical for both hosts.
import { defineConfig } from 'vite';
import { mockyardAliases } from './vite-aliases.mjs';

const nodeHost = process.env.MOCKYARD_NODE_URL ?? 'http://127.0.0.1:3000';
const proxy = {
  '/api': { target: nodeHost, ws: true, changeOrigin: true },
  '/_tracker': { target: nodeHost, ws: true, changeOrigin: true },
};

export default defineConfig({
  root: new URL('.', import.meta.url).pathname,
  resolve: { alias: mockyardAliases(process.env.MOCKYARD_FROM === 'dist' ? 'dist' : 'src') },
  server: { host: '127.0.0.1', port: Number(process.env.PORT ?? 5173), proxy },
  preview: { host: '127.0.0.1', proxy },
  build: { outDir: 'dist', emptyOutDir: true },
});
