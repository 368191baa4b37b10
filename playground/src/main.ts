import './style.css';
import { chosenHost, startHost, switchHost, type HostKind } from './host.js';
import { initChat } from './chat.js';
import { initEvents, refreshEvents } from './events.js';
import { initTasks, load } from './tasks.js';
import { $, api, toast } from './ui.js';

const kind = chosenHost();
for (const button of document.querySelectorAll<HTMLButtonElement>('[data-host]')) {
  button.setAttribute('aria-checked', String(button.dataset.host === kind));
  button.onclick = () => {
    if (button.dataset.host !== kind) switchHost(button.dataset.host as HostKind);
  };
}

const status = $('host-status');
const ready = (async () => {
  try {
    const host = await startHost(kind);
    status.className = 'status ok';
    status.querySelector('.label')!.textContent = host.label;
    await initTasks();
    await load();
    initChat();
    initEvents();
    await refreshEvents();
    $('reset').onclick = async () => {
      try {
        await api('/api/_reset', { method: 'POST' });
        toast('Data restored to the seed');
        await load();
      } catch (err) {
        // The node host serves files on disk: no seed to go back to (git checkout playground/mocks).
        toast((err as Error).message, 'error');
      }
    };
    return 'ready';
  } catch (err) {
    status.className = 'status error';
    status.querySelector('.label')!.textContent = (err as Error).message;
    return `error: ${(err as Error).message}`;
  }
})();
document.body.dataset.state = 'starting';
void ready.then((s) => (document.body.dataset.state = s.startsWith('error') ? 'error' : 'ready'));
Object.assign(window, { playground: { ready } });
