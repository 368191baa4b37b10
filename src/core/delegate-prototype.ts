/**
 * Lazy stand-ins for platform objects (the node host's Request and Headers, mockyard/test's Request): the stand-in class
 * defines the members it answers cheaply, and every other member of the platform prototype is
 * forwarded to the real object `realOf(this)` builds on first use. So no platform getter or
 * method ever runs with a foreign `this`, and anything the stand-in does not know still works.
 */
export function delegateMissing<T extends object>(stand: { prototype: T }, native: { prototype: object }, realOf: (self: T) => object): void {
  const proto = native.prototype;
  const keys: Array<string | symbol> = [...Object.getOwnPropertyNames(proto), ...Object.getOwnPropertySymbols(proto)];
  for (const key of keys) {
    if (key === 'constructor' || Object.prototype.hasOwnProperty.call(stand.prototype, key)) continue;
    const desc = Object.getOwnPropertyDescriptor(proto, key)!;
    if (desc.get) {
      Object.defineProperty(stand.prototype, key, {
        configurable: true,
        enumerable: desc.enumerable,
        get(this: T) {
          return Reflect.get(realOf(this), key);
        },
      });
    } else if (typeof desc.value === 'function') {
      Object.defineProperty(stand.prototype, key, {
        configurable: true,
        writable: true,
        value(this: T, ...args: unknown[]) {
          const real = realOf(this);
          return (Reflect.get(real, key) as (...a: unknown[]) => unknown).apply(real, args);
        },
      });
    }
  }
}
