import { Option, Schema } from "effect"

/** How many items one page holds. */
export const PageLimit = Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 200 }))
export const defaultPageLimit = 50

/**
 * An opaque cursor: where the previous page ended, as JSON in base64url, so that clients pass it
 * back rather than build it. A cursor that does not decode is invalid input, like any other.
 */
export const cursorOf = <S extends Schema.Codec<unknown, unknown>>(position: S) =>
  Schema.StringFromBase64Url.pipe(Schema.decodeTo(Schema.fromJsonString(position)))

/** One page of a list, and where the next one starts while more remain. */
export interface Page<A, P> {
  readonly items: ReadonlyArray<A>
  readonly next: Option.Option<P>
}

/**
 * Cuts what a store answered for `limit + 1` items into a page: the extra item only tells that
 * there is a next page, which starts after the last item shown.
 */
export const pageOf = <A, P>(
  rows: ReadonlyArray<A>,
  limit: number,
  positionOf: (item: A) => P
): Page<A, P> => {
  if (rows.length <= limit) return { items: rows, next: Option.none() }
  const items = rows.slice(0, limit)
  return { items, next: Option.some(positionOf(items[limit - 1] as A)) }
}
