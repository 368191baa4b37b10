/**
 * The layer contract of the mock API pipeline (issue 14, /work/team/LAYERS.md), as the
 * collections layer is written to it. Kept here only until src/engine/pipeline/layer.ts lands
 * on main; then this file re-exports it.
 */
import type { RequestContext } from '../context.js';

/** "Certainly not mine: ask the next layer" (peek). */
export const PASS: unique symbol = Symbol('mockyard.pass');

export interface Layer {
  readonly name: string;
  handle(ctx: RequestContext): Promise<Response | undefined> | Response | undefined;
  peek?(ctx: RequestContext): Response | typeof PASS | undefined;
  close?(): void | Promise<void>;
}
