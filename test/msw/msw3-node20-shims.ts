/**
 * Only for MOCKYARD_MSW3=1 on Node < 22.12 (outside msw 3's supported range): the two Node 22
 * built-ins msw 3 and its interceptors call, so the handlersFor suite can check mockyard's side
 * against msw 3's API here. Where Node meets msw 3's engines field this file is not loaded.
 */
const P = Promise as unknown as { withResolvers?: () => unknown };
P.withResolvers ??= function withResolvers<T>() {
  let resolve!: (value: T) => void;
  let reject!: (reason?: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
};
const S = Set.prototype as unknown as { intersection?: (other: Set<unknown>) => Set<unknown>; difference?: (other: Set<unknown>) => Set<unknown>; union?: (other: Set<unknown>) => Set<unknown> };
S.intersection ??= function (this: Set<unknown>, other: Set<unknown>) {
  return new Set([...this].filter((v) => other.has(v)));
};
S.difference ??= function (this: Set<unknown>, other: Set<unknown>) {
  return new Set([...this].filter((v) => !other.has(v)));
};
S.union ??= function (this: Set<unknown>, other: Set<unknown>) {
  return new Set([...this, ...other]);
};
