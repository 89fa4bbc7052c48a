/**
 * Type-level comparison of a generated output type with the upstream SDK's type of the same response: every property
 * the spec's `output` names, at the top and in its nested objects, array items and maps, must be a property of the
 * SDK's type at the same place, with a type the SDK's admits. `InventedFields<Ours, Theirs>` is the union of the paths
 * that are not (`never` when all are), so a type parameter constrained to `never` (`NoneOf` in
 * google-outputs.test-d.ts) fails to compile on a misspelt or invented field, naming its path (`items.attendees.mail`,
 * `sheets.data.rowData.values.note (type)`).
 *
 * Unions on either side are taken member by member: a field is real when a member of the SDK's type has it (a Notion
 * parent is one of several shapes, a search result a page or a database), and each member of ours (an `anyOf`) is
 * checked. Values are compared as they are on the wire: an SDK that revives dates (HubSpot's `Date`) reads strings,
 * and an open `string` (or `number`, `boolean`) in ours stands for the SDK's closed set of literals of that primitive
 * (Notion's `type` fields), while a literal of ours (a `const`) must be one of the SDK's.
 */

/**
 * The declared property names of T, of every member of a union (`keyof` of a union names only the keys all members
 * share), without index signatures: ours are open (`[key: string]: unknown`), and a field is real only when the SDK
 * names it (its maps are compared as maps, below).
 */
type DeclaredKeys<T> = T extends unknown ? keyof { [K in keyof T as string extends K ? never : number extends K ? never : K]: T[K] } & string : never;

/** T[K] over the members of T that have K. */
type Member<T, K> = T extends unknown ? (K extends keyof T ? T[K] : never) : never;

/** An array's element type (through nested arrays), null and undefined removed; of each member of a union. */
type Element<T> = NonNullable<T> extends infer N ? (N extends ReadonlyArray<infer I> ? Element<I> : N) : never;

/** How many arrays deep T is (each depth its union's members have). */
type Depth<T, D extends unknown[] = []> = NonNullable<T> extends infer N ? (N extends ReadonlyArray<infer I> ? Depth<I, [...D, 0]> : D['length']) : never;

type IsAny<T> = 0 extends 1 & T ? true : false;

/** A value as it is on the wire: a revived `Date` is a string there. */
type Wire<T> = T extends Date ? string : T;

/** A literal as its primitive. */
type Widen<T> = T extends string ? string : T extends number ? number : T extends boolean ? boolean : T;

/** `false` when a value of O is one T does not admit: a literal not among T's, or a primitive T has no literal of. */
type Admits<O, T> = O extends T ? true : Widen<O> extends O ? (O extends Widen<T> ? true : false) : false;

/** The value type of a map (`Record<string, V>`, an `additionalProperties` schema), if V is more than `unknown`. */
type MapValue<T> = T extends unknown ? (string extends keyof T ? (unknown extends T[string] ? never : T[string]) : never) : never;

type Checked<O, T, Path extends string> = IsAny<T> extends true
  ? never
  : Depth<O> extends Depth<T>
    ? Element<O> extends object
      ? Wire<Element<T>> extends object
        ? InventedFields<Element<O>, Element<T>, `${Path}.`>
        : `${Path} (type)`
      : false extends Admits<Element<O>, Wire<Element<T>>>
        ? `${Path} (type)`
        : never
    : `${Path} (array depth)`;

export type InventedFields<Ours, Theirs, Path extends string = ''> = Ours extends unknown
  ?
      | {
          [K in DeclaredKeys<Ours>]: K extends DeclaredKeys<Theirs> ? Checked<Ours[K], Member<Theirs, K>, `${Path}${K}`> : `${Path}${K}`;
        }[DeclaredKeys<Ours>]
      | ([MapValue<Ours>] extends [never]
          ? never
          : [MapValue<Theirs>] extends [never]
            ? `${Path}* (not a map)`
            : Checked<MapValue<Ours>, MapValue<Theirs>, `${Path}*`>)
  : never;

/**
 * Every path a generated output type describes, in the same notation (`results.properties.*`): a test lists the deep
 * ones a tool must describe, so an output that goes shallow again fails.
 */
export type DescribedPaths<T, Path extends string = ''> =
  Element<T> extends infer O
    ? O extends object
      ? | { [K in DeclaredKeys<O>]: `${Path}${K}` | DescribedPaths<Member<O, K>, `${Path}${K}.`> }[DeclaredKeys<O>]
        | ([MapValue<O>] extends [never] ? never : `${Path}*` | DescribedPaths<MapValue<O>, `${Path}*.`>)
      : never
    : never;

/** Tool name -> the fields its output invents, for the tools whose output invents any (`{}` when none does). */
export type InventedByTool<Outputs, Upstream> = {
  [N in keyof Upstream & keyof Outputs as [InventedFields<Outputs[N], Upstream[N]>] extends [never] ? never : N]: InventedFields<Outputs[N], Upstream[N]>;
};

/** What an SDK client method's promise resolves to: the SDK's type of that call's response. */
export type ClientResult<F> = F extends (...args: never[]) => Promise<infer R> ? R : never;
