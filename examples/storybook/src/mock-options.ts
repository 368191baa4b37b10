// The mock API's options, shared by the app's dev server (vite.config.ts: files on disk) and
// Storybook (.storybook/preview.ts: the same files bundled into the page).
export const mockOptions = {
  endpointPrefix: '/api',
  preset: 'json-server',
  fsDir: 'mocks',
  scenarios: { empty: { fsDir: 'scenarios/empty' } },
} as const;
