/**
 * Type-level comparison of a generated output type with the upstream SDK's type of the same response: every property
 * the spec's `output` names, at the top and in its nested objects, array items and maps, must be a property of the
 * SDK's type at the same place, with a type the SDK's admits. `InventedFields<Ours, Theirs>` is the union of the paths
 * that are not (`never` when all are), so a type parameter constrained to `never` (`NoneOf` in
 * google-outputs.test-d.ts) fails to compile on a misspelt or invented field, naming its path (`items.attendees.mail`,
 * `sheets.data.rowData.values.note (type)`).
 */

/** The declared property names of T, without its index signature (output types are open: `[key: string]: unknown`). */
type DeclaredKeys<T> = keyof { [K in keyof T as string extends K ? never : number extends K ? never : K]: T[K] } & string;

/** An array's element type (through nested arrays), null and undefined removed. */
type Element<T> = NonNullable<T> extends ReadonlyArray<infer I> ? Element<I> : NonNullable<T>;

/** How many arrays deep T is. */
type Depth<T, D extends unknown[] = []> = NonNullable<T> extends ReadonlyArray<infer I> ? Depth<I, [...D, 0]> : D['length'];

type IsAny<T> = 0 extends 1 & T ? true : false;

/** The value type of a map (`Record<string, V>`, an `additionalProperties` schema), if V is more than `unknown`. */
type MapValue<T> = string extends keyof T ? (unknown extends T[string] ? never : Element<T[string]>) : never;

type Checked<O, T, Path extends string> = IsAny<T> extends true
  ? never
  : Depth<O> extends Depth<T>
    ? Element<O> extends object
      ? Element<T> extends object
        ? InventedFields<Element<O>, Element<T>, `${Path}.`>
        : `${Path} (type)`
      : Element<O> extends Element<T>
        ? never
        : `${Path} (type)`
    : `${Path} (array depth)`;

export type InventedFields<Ours, Theirs, Path extends string = ''> =
  | {
      [K in DeclaredKeys<Ours>]: K extends keyof Theirs ? Checked<Ours[K], Theirs[K], `${Path}${K}`> : `${Path}${K}`;
    }[DeclaredKeys<Ours>]
  | ([MapValue<Ours>] extends [never]
      ? never
      : [MapValue<Theirs>] extends [never]
        ? `${Path}* (not a map)`
        : InventedFields<MapValue<Ours>, MapValue<Theirs>, `${Path}*.`>);
