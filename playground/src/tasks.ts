/**
 * The tasks panel: list with filters and pagination driven by `X-Total-Count`, create (POST),
 * edit (PATCH), delete, file upload (multipart PUT) with preview. Plain fetch on /api: the same
 * code runs against the in-page worker and the node host.
 */
import type { Member, Task } from '../shared/team-tasks.mjs';
import { $, api, h, toast } from './ui.js';

const PAGE_SIZE = 8;
const STATUS_LABEL: Record<Task['status'], string> = { todo: 'To do', doing: 'In progress', done: 'Done' };

let members: Member[] = [];
let page = 0;
let total = 0;
let editing: Task | null = null;

const filtersForm = () => $('filters') as HTMLFormElement;

function query(): string {
  const data = new FormData(filtersForm());
  const params = new URLSearchParams();
  for (const key of ['q', 'status', 'assignee']) {
    const v = String(data.get(key) ?? '').trim();
    if (v) params.set(key, v);
  }
  const [sort, order] = String(data.get('sort') ?? 'id:asc').split(':');
  params.set('_sort', sort!);
  params.set('_order', order!);
  params.set('_limit', String(PAGE_SIZE));
  params.set('_skip', String(page * PAGE_SIZE));
  return params.toString();
}

function member(id: string | null): Member | undefined {
  return members.find((m) => m.id === id);
}

function initials(name: string): string {
  return name.split(/\s+/).map((p) => p[0]).join('').slice(0, 2).toUpperCase();
}

function attachmentView(task: Task): HTMLElement | null {
  if (!task.attachment) return null;
  const url = `/api/uploads/${encodeURIComponent(task.attachment)}`;
  if (/\.(png|jpe?g|gif|webp|svg)$/i.test(task.attachment)) {
    return h('a', { href: url, target: '_blank', title: task.attachment }, h('img', { class: 'thumb', src: url, alt: task.attachment, 'data-testid': 'thumb' }));
  }
  return h('a', { href: url, target: '_blank', text: `📎 ${task.attachment}` });
}

function row(task: Task): HTMLElement {
  const m = member(task.assignee);
  const avatar = h('span', { class: 'avatar', title: m?.name ?? 'Unassigned', text: m ? initials(m.name) : '–' });
  avatar.style.background = m?.color ?? '#9ca3af';
  const meta = h('div', { class: 'meta' },
    h('span', { class: `pill ${task.status}`, text: STATUS_LABEL[task.status] }),
    task.priority === 'high' ? h('span', { class: 'pill high', text: 'High' }) : h('span', { class: 'pill', text: task.priority[0]!.toUpperCase() + task.priority.slice(1) }),
    task.due ? h('span', { text: `Due ${task.due}` }) : null,
    attachmentView(task),
  );
  const edit = h('button', { type: 'button', class: 'btn small', text: 'Edit', 'data-action': 'edit' });
  const done = h('button', { type: 'button', class: 'btn small', text: task.status === 'done' ? 'Reopen' : 'Done', 'data-action': 'toggle' });
  const del = h('button', { type: 'button', class: 'btn small danger', text: 'Delete', 'data-action': 'delete', 'aria-label': `Delete ${task.title}` });
  edit.onclick = () => openEditor(task);
  done.onclick = () => void patch(task.id, { status: task.status === 'done' ? 'todo' : 'done' }).then(load);
  del.onclick = () => void remove(task);
  return h('li', { class: `task ${task.status}`, 'data-id': String(task.id) },
    avatar,
    h('div', {}, h('div', { class: 'title', text: task.title }), meta),
    h('div', { class: 'actions' }, done, edit, del),
  );
}

export async function load(): Promise<void> {
  const res = await api(`/api/tasks?${query()}`);
  total = Number(res.headers.get('X-Total-Count') ?? 0);
  const tasks = (await res.json()) as Task[];
  if (tasks.length === 0 && page > 0 && total > 0) {
    page = Math.max(0, Math.ceil(total / PAGE_SIZE) - 1);
    return load();
  }
  const list = $('task-list');
  list.replaceChildren(...(tasks.length ? tasks.map(row) : [h('li', { class: 'empty', text: 'No tasks match these filters.' })]));
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const first = total === 0 ? 0 : page * PAGE_SIZE + 1;
  $('page-info').textContent = `${first}–${page * PAGE_SIZE + tasks.length} of ${total} · page ${page + 1} of ${pages}`;
  $('tasks-count').textContent = `${total} task${total === 1 ? '' : 's'}`;
  ($('prev') as HTMLButtonElement).disabled = page === 0;
  ($('next') as HTMLButtonElement).disabled = (page + 1) * PAGE_SIZE >= total;
}

async function patch(id: number, fields: Partial<Task>): Promise<Task> {
  const res = await api(`/api/tasks/${id}`, {
    method: 'PATCH',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(fields),
  });
  return (await res.json()) as Task;
}

async function remove(task: Task): Promise<void> {
  await api(`/api/tasks/${task.id}`, { method: 'DELETE' });
  toast(`Deleted “${task.title}”`);
  await load();
}

function fillMemberSelect(select: HTMLSelectElement, first: string | null): void {
  select.replaceChildren(
    ...(first !== null ? [h('option', { value: '', text: first })] : []),
    ...members.map((m) => h('option', { value: m.id, text: m.name })),
  );
}

/** Upload = multipart PUT of the file into uploads/ (file-system mode stores the bytes). */
async function upload(taskId: number, file: File): Promise<string> {
  const safe = file.name.replace(/[^\w.-]+/g, '_').slice(-80) || 'file';
  const name = `task-${taskId}-${safe}`;
  const form = new FormData();
  form.append('file', file, name);
  await api(`/api/uploads/${encodeURIComponent(name)}`, { method: 'PUT', body: form });
  return name;
}

function openEditor(task: Task): void {
  editing = task;
  const dialog = $('edit-dialog') as HTMLDialogElement;
  const form = $('edit-form') as HTMLFormElement;
  (form.elements.namedItem('title') as HTMLInputElement).value = task.title;
  (form.elements.namedItem('status') as HTMLSelectElement).value = task.status;
  (form.elements.namedItem('priority') as HTMLSelectElement).value = task.priority;
  (form.elements.namedItem('assignee') as HTMLSelectElement).value = task.assignee ?? '';
  (form.elements.namedItem('due') as HTMLInputElement).value = task.due ?? '';
  (form.elements.namedItem('file') as HTMLInputElement).value = '';
  const preview = $('edit-preview');
  preview.replaceChildren(...[attachmentView(task)].filter((x): x is HTMLElement => x !== null));
  dialog.showModal();
}

export async function initTasks(): Promise<void> {
  members = (await (await api('/api/members')).json()) as Member[];
  fillMemberSelect(filtersForm().elements.namedItem('assignee') as HTMLSelectElement, 'Everyone');
  const create = $('create') as HTMLFormElement;
  fillMemberSelect(create.elements.namedItem('assignee') as HTMLSelectElement, null);
  fillMemberSelect(($('edit-form') as HTMLFormElement).elements.namedItem('assignee') as HTMLSelectElement, 'Unassigned');

  let debounce: ReturnType<typeof setTimeout> | undefined;
  filtersForm().addEventListener('input', () => {
    clearTimeout(debounce);
    debounce = setTimeout(() => {
      page = 0;
      void load();
    }, 150);
  });
  filtersForm().addEventListener('submit', (e) => e.preventDefault());
  $('prev').onclick = () => {
    page = Math.max(0, page - 1);
    void load();
  };
  $('next').onclick = () => {
    page += 1;
    void load();
  };

  create.addEventListener('submit', async (e) => {
    e.preventDefault();
    const data = new FormData(create);
    try {
      const res = await api('/api/tasks', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          title: String(data.get('title') ?? ''),
          assignee: String(data.get('assignee') ?? '') || null,
          priority: String(data.get('priority') ?? 'medium'),
          due: String(data.get('due') ?? '') || null,
        }),
      });
      const task = (await res.json()) as Task;
      create.reset();
      toast(`Created task #${task.id}`);
      await load();
    } catch (err) {
      toast((err as Error).message, 'error');
    }
  });

  const dialog = $('edit-dialog') as HTMLDialogElement;
  const form = $('edit-form') as HTMLFormElement;
  const fileInput = form.elements.namedItem('file') as HTMLInputElement;
  fileInput.addEventListener('change', () => {
    const file = fileInput.files?.[0];
    const preview = $('edit-preview');
    if (!file) return;
    preview.replaceChildren(file.type.startsWith('image/') ? h('img', { src: URL.createObjectURL(file), alt: file.name }) : h('span', { class: 'muted', text: `${file.name} · ${file.size} bytes` }));
  });
  $('edit-cancel').onclick = () => dialog.close();
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    if (!editing) return;
    const data = new FormData(form);
    const fields: Partial<Task> = {
      title: String(data.get('title') ?? '').trim(),
      status: String(data.get('status')) as Task['status'],
      priority: String(data.get('priority')) as Task['priority'],
      assignee: String(data.get('assignee') ?? '') || null,
      due: String(data.get('due') ?? '') || null,
    };
    try {
      const file = fileInput.files?.[0];
      if (file) fields.attachment = await upload(editing.id, file);
      await patch(editing.id, fields);
      dialog.close();
      toast('Saved');
      await load();
    } catch (err) {
      toast((err as Error).message, 'error');
    }
  });
}
