import type { DataModel } from './data-model.js';
export function dataOpenApi(_m: DataModel, _o: { title: string; prefix: string }): Record<string, unknown> { throw new Error('not done yet'); }
