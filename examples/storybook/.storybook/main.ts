import type { StorybookConfig } from '@storybook/react-vite';

const config: StorybookConfig = {
  framework: '@storybook/react-vite',
  stories: ['../src/**/*.stories.tsx'],
  // mockServiceWorker.js (`npx mockyard init-worker .storybook/public`): served by Storybook
  // only, so the app's own `vite build` never ships it.
  staticDirs: ['./public'],
  core: { disableTelemetry: true },
  viteFinal: (vite) => ({ ...vite, resolve: { ...vite.resolve, dedupe: [...(vite.resolve?.dedupe ?? []), 'msw'] } }),
};
export default config;
