/**
 * The operations of one store transaction on the write batch's working copy (writes.ts), each
 * with its undo: a transaction that throws is rolled back before the next one in the batch runs.
 * A class (methods on the prototype, the undo list made on the first change), as every REST
 * write of a collection makes one.
 */
import { HttpError } from '../../core/errors.js';
import { assertNoForbiddenKeys } from '../../core/json-safety.js';
import type { Item, StoreTransaction } from '../store-contract/contract.js';
import { idKeyOf, nextId } from './item-id.js';
import type { MutationScope } from './writes.js';
import { isObj } from '../../core/json-object.js';

export class ScopedTransaction implements StoreTransaction {
  private undo: Array<() => void> | undefined;

  constructor(
    private readonly scope: MutationScope,
    private readonly idField: string,
  ) {}

  get items(): readonly Item[] {
    return this.scope.items as Item[];
  }

  private find(id: string | number): number {
    return this.scope.ids.find(this.scope.items, typeof id === 'string' ? id : String(id));
  }

  private done(step: () => void): void {
    (this.undo ??= []).push(step);
  }

  /** Undoes every change made so far, last first. */
  rollback(): void {
    const undo = this.undo;
    if (undo === undefined) return;
    for (let i = undo.length - 1; i >= 0; i--) undo[i]!();
    this.scope.changed(true); // positions may have moved and back: rebuild the id index
  }

  get(id: string | number): Item | undefined {
    const i = this.find(id);
    return i === -1 ? undefined : (this.scope.items[i] as Item);
  }

  insert(input: Item): Item {
    const { scope, idField } = this;
    if (!isObj(input)) throw new HttpError(400, 'A collection item must be a JSON object');
    assertNoForbiddenKeys(input, 'item');
    let item: Item = { ...input };
    if (item[idField] === undefined || item[idField] === null) {
      const assigned = nextId(scope.items, idField);
      item = { [idField]: assigned, ...item, [idField]: assigned }; // the id first, as json-server writes it
    }
    const id = idKeyOf(item, idField);
    if (id === undefined) throw new HttpError(400, `The "${idField}" of an item must be a string or a number`);
    if (scope.ids.find(scope.items, id) !== -1) throw new HttpError(409, `An item with ${idField} ${JSON.stringify(id)} already exists`);
    scope.items.push(item);
    scope.ids.appended(id, scope.items.length - 1);
    scope.changed();
    this.done(() => scope.items.pop());
    return item;
  }

  update(id: string | number, changes: Item, options?: { replace?: boolean }): Item | undefined {
    const { scope, idField } = this;
    if (!isObj(changes)) throw new HttpError(400, 'A collection item must be a JSON object');
    assertNoForbiddenKeys(changes, 'item');
    const i = this.find(id);
    if (i === -1) return undefined;
    const current = scope.items[i] as Item;
    const item = options?.replace ? { ...changes, [idField]: current[idField] } : { ...current, ...changes, [idField]: current[idField] };
    scope.items[i] = item;
    scope.changed();
    this.done(() => (scope.items[i] = current));
    return item;
  }

  remove(id: string | number): Item | undefined {
    const scope = this.scope;
    const i = this.find(id);
    if (i === -1) return undefined;
    const [removed] = scope.items.splice(i, 1);
    scope.changed(true);
    this.done(() => scope.items.splice(i, 0, removed));
    return removed as Item;
  }

  removeWhere(test: (item: Item) => boolean): Item[] {
    const items = this.scope.items;
    const removed: Item[] = [];
    let first = 0;
    while (first < items.length && !test(items[first] as Item)) first++;
    if (first === items.length) return removed;
    const before = items.slice();
    let kept = first;
    for (let i = first; i < before.length; i++) {
      const item = before[i];
      if (i === first || test(item as Item)) removed.push(item as Item);
      else items[kept++] = item;
    }
    items.length = kept;
    this.scope.changed(true);
    this.done(() => {
      items.length = 0;
      for (let i = 0; i < before.length; i++) items.push(before[i]);
    });
    return removed;
  }
}
