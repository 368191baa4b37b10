// An example vitest project using mockyard/test. In your project this file needs no alias:
// `mockyard` resolves from node_modules. Here it resolves to this repository's build (dist/).
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const dist = (file: string) => fileURLToPath(new URL(`../../dist/${file}`, import.meta.url));

export default defineConfig({
  resolve: {
    alias: [
      // Under Node `mockyard/test` resolves to its `node` condition (node:http clients too).
      { find: /^mockyard\/test$/, replacement: dist('test/index.node.js') },
      { find: /^mockyard$/, replacement: dist('index.node.js') },
    ],
  },
  test: {
    name: 'example-vitest',
    root: fileURLToPath(new URL('.', import.meta.url)),
    environment: 'node', // users-dom.test.ts switches to happy-dom with a comment
    setupFiles: ['./test/setup.ts'],
  },
});
