import { useEffect, useState, type FormEvent } from 'react';
import { track } from './track';

interface Item {
  id: number;
  title: string;
}

type State = { kind: 'loading' } | { kind: 'error'; status: number } | { kind: 'ready'; items: Item[] };

/** The list of items from GET /api/items, and a form that POSTs a new one. */
export function ItemList() {
  const [state, setState] = useState<State>({ kind: 'loading' });
  const [title, setTitle] = useState('');

  useEffect(() => {
    let live = true;
    fetch('/api/items')
      .then(async (res) => {
        if (!live) return;
        if (!res.ok) setState({ kind: 'error', status: res.status });
        else setState({ kind: 'ready', items: (await res.json()) as Item[] });
      })
      .catch(() => live && setState({ kind: 'error', status: 0 }));
    return () => {
      live = false;
    };
  }, []);

  async function add(event: FormEvent) {
    event.preventDefault();
    const res = await fetch('/api/items', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ title }),
    });
    if (!res.ok) return setState({ kind: 'error', status: res.status });
    const item = (await res.json()) as Item;
    track('item_added', { message: item.title });
    setTitle('');
    setState((s) => (s.kind === 'ready' ? { kind: 'ready', items: [...s.items, item] } : s));
  }

  if (state.kind === 'loading') return <p>Loading…</p>;
  if (state.kind === 'error') return <p role="alert">Could not load the items (HTTP {state.status})</p>;
  return (
    <section>
      {state.items.length === 0 ? (
        <p>No items yet</p>
      ) : (
        <ul aria-label="Items">
          {state.items.map((item) => (
            <li key={item.id}>{item.title}</li>
          ))}
        </ul>
      )}
      <form onSubmit={add}>
        <input aria-label="Title" value={title} onChange={(e) => setTitle(e.currentTarget.value)} />
        <button type="submit">Add</button>
      </form>
    </section>
  );
}
