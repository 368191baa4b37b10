/**
 * `req.params` typed from a pattern literal (types only): `'/users/{id}'` and `'/users/:id'` →
 * `{ id: string }`, `'/orders/{id:\\d+}/items/{item}'` → `{ id: string; item: string }`,
 * `'/flights/:from-:to'` → `{ from: string; to: string }`. Wildcards (`*`, `**`) add numbered
 * captures (`params['0']`), typed as an index signature. A pattern that is only known as
 * `string` gives `Record<string, string>`. Mirrors handler-api/pattern.ts closely enough for names people
 * write; handler-api/pattern.ts stays the rule at run time.
 */

type Split<S extends string, D extends string> = S extends `${infer A}${D}${infer B}` ? A | Split<B, D> : S;

/** Names of `{name}` / `{name:regex}` tokens. */
type BraceNames<S extends string> = S extends `${string}{${infer Inner}}${infer Rest}`
  ? (Inner extends `${infer Name}:${string}` ? Name : Inner) | BraceNames<Rest>
  : never;

/** Names of `:name` tokens: a piece (between `/`, `-`, `.`) that starts with `:`. */
type ColonNames<Piece extends string> = Piece extends `:${infer Name}` ? (Name extends '' ? never : Name) : never;

/** Every parameter name a pattern captures. */
export type PathParamNames<P extends string> = BraceNames<P> | ColonNames<Split<Split<Split<P, '/'>, '-'>, '.'>>;

export type PathParams<P extends string> = string extends P
  ? Record<string, string>
  : { [K in PathParamNames<P>]: string } & (P extends `${string}*${string}` ? Record<string, string> : unknown);
