import type { MockApiOptions, CollectorOptions } from 'mockyard/browser';
import type { Vfs } from '../../src/vfs/types.js';

export interface Task {
  id: number;
  title: string;
  status: 'todo' | 'doing' | 'done';
  assignee: string | null;
  priority: 'low' | 'medium' | 'high';
  due: string | null;
  attachment: string | null;
  createdAt?: string;
  tags?: string[];
}
export interface Member { id: string; name: string; color: string }

export const pagination: MockApiOptions['pagination'];
export const filters: MockApiOptions['filters'];
export const handlers: NonNullable<MockApiOptions['handlers']>;
export const wsHandlers: NonNullable<MockApiOptions['wsHandlers']>;
export const scenarios: NonNullable<MockApiOptions['scenarios']>;
export function teamTasksMock(fs: Vfs, extra?: Partial<MockApiOptions>): MockApiOptions;
export function teamTasksTracker(fs?: Vfs): CollectorOptions;
