import type { MockApiOptions, CollectorOptions, SeedTree } from 'mockyard/sw';
import type { Vfs } from '../../src/vfs/types.js';

export interface Task {
  id: number;
  title: string;
  status: 'todo' | 'doing' | 'done';
  assignee: string | null;
  priority: 'low' | 'medium' | 'high';
  due: string | null;
  attachment: string | null;
}
export interface Member { id: string; name: string; color: string }

export const seed: SeedTree;
export const pagination: MockApiOptions['pagination'];
export const filters: MockApiOptions['filters'];
export const handlers: NonNullable<MockApiOptions['handlers']>;
export const wsHandlers: NonNullable<MockApiOptions['wsHandlers']>;
export function teamTasksMock(fs: Vfs, extra?: Partial<MockApiOptions>): MockApiOptions;
export function teamTasksTracker(fs?: Vfs): CollectorOptions;
