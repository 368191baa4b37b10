/**
 * Which request caused a webhook, for the journal: the webhooks layer marks a request that caused
 * deliveries with a number (an own symbol property, set only on such requests); the journal reads
 * it when it records that request and links the outgoing rows carrying the same number to it.
 */
const kWebhookCause = Symbol.for('mockyard.webhookCause');

/** Marks `request` as a webhook's cause (once, with `next()`: a number unique in its engine); returns its number. */
export function markCause(request: Request, next: () => number): number {
  const r = request as unknown as Record<symbol, number | undefined>;
  return (r[kWebhookCause] ??= next());
}

/** The number `markCause` gave `request`, or undefined. */
export function webhookCauseOf(request: Request): number | undefined {
  return (request as unknown as Record<symbol, number | undefined>)[kWebhookCause];
}
