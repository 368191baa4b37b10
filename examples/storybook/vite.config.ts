import react from '@vitejs/plugin-react';
import { mockyard } from 'mockyard/node';
import { defineConfig } from 'vite';
import { mockOptions } from './src/mock-options';

// The app: `npm run dev` serves the mocks folder from disk through mockyard's dev-server
// middleware (development only: the plugin adds nothing to `vite build`).
export default defineConfig({
  plugins: [react(), mockyard({ mock: mockOptions, tracker: { appId: 'items' } })],
});
