// An example jest project using mockyard/test, run by `npm test` (test/examples/jest.test.ts)
// with jest 29.7 (also checked by hand with jest 30.5).
// mockyard is ESM-only: jest runs in its ESM mode (node --experimental-vm-modules) without
// transforms. In your project `mockyard` resolves from node_modules; here the mapper points it at
// this repository's build (dist/).
export default {
  rootDir: '.',
  testEnvironment: 'node',
  transform: {},
  testMatch: ['<rootDir>/*.test.js'],
  moduleNameMapper: {
    '^mockyard$': '<rootDir>/../../dist/index.node.js',
    '^mockyard/test$': '<rootDir>/../../dist/test/index.js',
  },
};
