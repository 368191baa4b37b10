import { renderApp } from './app';

// Mocks in development only: in `vite build` this import is dead code,
// so neither mockyard nor msw reaches the production bundle.
async function enableMocking(): Promise<void> {
  if (!import.meta.env.DEV) return;
  const { startMocks } = await import('./mocks/browser');
  await startMocks();
}

// Start the worker before the app's first fetch, then render.
enableMocking().then(renderApp);
