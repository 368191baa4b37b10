import { initialize, mockyardDecorator, mockyardGlobalTypes, mockyardInitialGlobals, mockyardLoader } from 'mockyard/storybook';
import { mockOptions } from '../src/mock-options';

// The app's mocks folder (and its scenarios), bundled into the page: the same files `npm run dev` serves.
initialize({
  files: import.meta.glob(['../mocks/**/*.json', '../scenarios/**/*.json'], { eager: true, query: '?raw', import: 'default' }),
  mock: mockOptions,
});

export default {
  loaders: [mockyardLoader],
  // The "mockyard" toolbar item: the devtools overlay with this story's requests.
  decorators: [mockyardDecorator],
  globalTypes: mockyardGlobalTypes,
  initialGlobals: mockyardInitialGlobals,
};
