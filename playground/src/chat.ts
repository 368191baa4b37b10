/**
 * The chat panel: two teammates in the same room, each with their own WebSocket to the
 * `/api/chat/{room}` handler — a message typed on one side shows up on the other.
 */
import { $, h } from './ui.js';

interface ChatMessage {
  type: 'welcome' | 'joined' | 'left' | 'message';
  from?: string;
  name?: string;
  text?: string;
}

function pane(name: string, color: string): HTMLElement {
  const messages = h('ul', { class: 'messages', 'data-testid': `chat-${name.toLowerCase()}` });
  const input = h('input', { placeholder: 'Message…', 'aria-label': `Message as ${name}`, maxlength: '500' });
  const send = h('button', { type: 'submit', class: 'btn primary small', text: 'Send' });
  const form = h('form', {}, input, send);
  const dot = h('span', { class: 'avatar' });
  dot.style.cssText = `width:22px;height:22px;font-size:0.65rem;background:${color}`;
  dot.textContent = name[0]!;
  const status = h('span', { class: 'muted', text: 'connecting…' });
  const el = h('div', { class: 'pane' }, h('header', {}, dot, h('span', { text: name }), status), messages, form);

  const add = (item: HTMLElement) => {
    messages.append(item);
    messages.scrollTop = messages.scrollHeight;
  };
  const url = `${location.origin.replace(/^http/, 'ws')}/api/chat/general?name=${encodeURIComponent(name)}`;
  let socket: WebSocket;
  const connect = () => {
    socket = new WebSocket(url);
    socket.onopen = () => (status.textContent = 'online');
    socket.onclose = () => {
      status.textContent = 'offline — retrying';
      setTimeout(connect, 3000);
    };
    socket.onmessage = (event) => {
      const msg = JSON.parse(String(event.data)) as ChatMessage;
      if (msg.type === 'message') {
        const mine = msg.from === name;
        add(h('li', { class: mine ? 'mine' : '' }, mine ? '' : h('span', { class: 'from', text: msg.from ?? '' }), msg.text ?? ''));
      } else if (msg.type === 'joined' || msg.type === 'left') {
        add(h('li', { class: 'notice', text: `${msg.name} ${msg.type === 'joined' ? 'joined' : 'left'}` }));
      }
    };
  };
  connect();
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (!text || socket.readyState !== WebSocket.OPEN) return;
    socket.send(JSON.stringify({ text }));
    input.value = '';
  });
  return el;
}

export function initChat(): void {
  $('chat-panes').replaceChildren(pane('Ada', '#7c3aed'), pane('Grace', '#0891b2'));
}
