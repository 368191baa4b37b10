import type { Meta, StoryObj } from '@storybook/react-vite';
import type { StoryMockyard } from 'mockyard/storybook';
import { http, HttpResponse } from 'msw';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { ItemList } from './ItemList';

const meta: Meta<typeof ItemList> = { component: ItemList };
export default meta;
type Story = StoryObj<typeof ItemList>;

/** The seeded items (mocks/items.json). */
export const List: Story = {};

/** The 'empty' scenario (scenarios/empty/items.json). */
export const Empty: Story = { parameters: { mockyard: { scenario: 'empty' } } };

/** GET /api/items fails with a 500: the error state. */
export const ServerError: Story = {
  parameters: { mockyard: { faults: [{ method: 'GET', path: '/items', status: 500 }] } },
};

/** Adds an item, then asserts what the story sent and what the collector got. */
export const AddItem: Story = {
  play: async ({ canvasElement, loaded }) => {
    const mockyard = loaded.mockyard as StoryMockyard;
    const canvas = within(canvasElement);
    const wait = { timeout: 10_000 }; // answers come from the page's worker: allow a slow machine
    await canvas.findByText('Write the stories', {}, wait);
    await userEvent.type(canvas.getByLabelText('Title'), 'Ship it');
    await userEvent.click(canvas.getByRole('button', { name: 'Add' }));
    await canvas.findByText('Ship it', {}, wait);
    const posts = await mockyard.requests({ method: 'POST' });
    await expect(posts.map((e) => [e.url, e.status, JSON.parse(e.request.body?.text ?? '{}')])).toEqual([['/api/items', 201, { title: 'Ship it' }]]);
    await waitFor(async () => expect((await mockyard.events()).map((e) => e.type)).toEqual(['item_added']), wait);
  },
};

/** The story's own data. */
export const OwnData: Story = {
  parameters: { mockyard: { data: { 'items.json': [{ id: 7, title: 'Only in this story' }] } } },
};

/** An msw handler, as msw-storybook-addon's stories give them: in front of mockyard's routes. */
export const FromMsw: Story = {
  parameters: { msw: { handlers: [http.get('/api/items', () => HttpResponse.json([{ id: 3, title: 'From an msw handler' }]))] } },
};
