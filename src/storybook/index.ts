/**
 * `mockyard/storybook`: the page worker (src/sw/start-worker.ts) under Storybook, one private
 * session (docs/sessions.md) per story. For any renderer on a Vite builder (React, Vue, web
 * components): nothing here imports Storybook or a UI library; the loader and the decorator are
 * the plain functions every renderer takes.
 *
 *   // .storybook/preview.ts
 *   import { initialize, mockyardLoader } from 'mockyard/storybook';
 *   initialize({ files: import.meta.glob('../mocks/**', { eager: true, query: '?raw', import: 'default' }), mock: { endpointPrefix: '/api', preset: 'json-server' } });
 *   export default { loaders: [mockyardLoader] };
 *
 *   // a story
 *   export const Empty = { parameters: { mockyard: { scenario: 'empty' } } };
 *
 * How a story is isolated: the page worker puts every request the story's page sends (that names
 * no session itself) in the story's session, so its writes, scenario, overrides and faults are
 * its own; each render of a story gets a fresh one (the previous is dropped), so going back to a
 * story starts over from the mocks. The rules live in story-session.ts.
 */
export { initialize, mockyardLoader, mockyardDecorator, mockyardGlobalTypes, mockyardInitialGlobals, type InitializeOptions } from './preview.js';
export type { MockyardParameters, StoryFault, StoryMockyard, StoryRequestFilter } from './story-session.js';
