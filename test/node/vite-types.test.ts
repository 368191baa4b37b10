/** The Vite plugin is assignable to Vite's own Plugin type (checked by `npm run typecheck`). */
import type { Plugin } from 'vite';
import { expect, it } from 'vitest';
import { mockyard } from '../../src/node/vite.js';

it('mockyard() is a Vite Plugin with dev and preview hooks', () => {
  const plugin: Plugin = mockyard({ mock: { endpointPrefix: '/api', fsDir: 'mocks' } });
  expect(plugin.name).toBe('mockyard');
  expect(typeof plugin.configureServer).toBe('function');
  expect(typeof plugin.configurePreviewServer).toBe('function');
});
