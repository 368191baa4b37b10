/**
 * STUB (owned by the programmable-layer colleague, who replaces this file): the WebSocket layer.
 * `upgrade(ctx)` follows src/core/socket.ts (undefined = not mine, Response = refuse,
 * SocketAccept = accept); `broadcast(pattern, data)` returns the number of clients reached.
 * `createWsLayer` may return undefined when WebSocket support is off.
 */
import type { UpgradeResult } from '../../core/socket.js';
import type { RequestContext } from '../context.js';
import type { ResolvedMockApiOptions } from '../options.js';
import type { EngineServices } from '../services.js';

export interface WsLayer {
  upgrade(ctx: RequestContext): UpgradeResult | Promise<UpgradeResult>;
  broadcast(pattern: string, data: unknown, options?: { room?: string }): number;
  close?(): Promise<void>;
}

export function createWsLayer(_options: ResolvedMockApiOptions, _services: EngineServices): WsLayer | undefined {
  return {
    upgrade() {
      return undefined;
    },
    broadcast() {
      return 0;
    },
  };
}
