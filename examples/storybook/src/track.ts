// The app's analytics call: one event to the collector's ingest endpoint (the contract's body).
export function track(type: string, data: Record<string, unknown> = {}): void {
  const event = { id: '', timestamp: new Date().toISOString(), type, level: 'info', ...data };
  void fetch('/_tracker/events', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ type: 'ingest', events: [event] }),
  }).catch(() => undefined);
}
