/**
 * Streams still going when their engine closes: an answer's stream made by `sse()` / `ndjson()` /
 * `textStream()` or by a handler's Node-style `res.write` registers how to end it
 * (`registerStream`); the handler layer tracks the streams it answered with (`LiveStreams`) and
 * ends them on `close()`, so no stream (and no timer it waits on) outlives the engine, whatever
 * host serves it. A stream leaves the set when it ends by itself.
 */

interface Registration {
  /** Ends the stream for its client (a clean end). */
  stop(): void;
  /** Calls `listener` once when the stream has ended (at once if it has). */
  onEnd(listener: () => void): void;
}

const registry = new WeakMap<ReadableStream<Uint8Array>, Registration>();

export function registerStream(stream: ReadableStream<Uint8Array>, registration: Registration): void {
  registry.set(stream, registration);
}

/** A small helper for producers: the end listeners of one stream. */
export function endSignal(): { onEnd(listener: () => void): void; ended(): void } {
  let done = false;
  let listeners: Array<() => void> = [];
  return {
    onEnd(listener) {
      if (done) listener();
      else listeners.push(listener);
    },
    ended() {
      if (done) return;
      done = true;
      const list = listeners;
      listeners = [];
      for (const l of list) l();
    },
  };
}

export class LiveStreams {
  private readonly live = new Set<Registration>();

  /** Tracks the answer's stream when it registered one (a platform Response's body: reading it creates nothing); returns the answer. */
  track(response: Response): Response {
    if (Object.getPrototypeOf(response) !== Response.prototype) return response;
    const body = response.body;
    const registration = body === null ? undefined : registry.get(body);
    if (registration === undefined) return response;
    this.live.add(registration);
    registration.onEnd(() => this.live.delete(registration));
    return response;
  }

  closeAll(): void {
    for (const r of [...this.live]) r.stop();
    this.live.clear();
  }
}
