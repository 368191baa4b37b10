/**
 * playwright.config.ts as docs/sessions.md shows it: a plain `defineConfig` takes the fixture's
 * options once a spec of the program imports `mockyard/playwright` (checked by the typecheck).
 */
import { defineConfig } from '@playwright/test';
import type {} from 'mockyard/playwright';

export default defineConfig({
  use: { baseURL: 'http://localhost:5173', mockyardURL: 'http://localhost:5173', mockyardToken: 'tok-0123456789abcdef' },
});

// @ts-expect-error a typo is still an error
defineConfig({ use: { mockyardTokn: 'x' } });
