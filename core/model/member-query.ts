import { Schema } from "effect"
import { MemberId, RoleId } from "./ids.ts"
import { cursorOf } from "./page.ts"
import { isDisplayable } from "./text.ts"

/** Where a page of members ends: members are listed by creation time, the id breaking ties. */
export const MemberPosition = Schema.Struct({
  createdAt: Schema.DateTimeUtcFromMillis,
  id: MemberId
})
export type MemberPosition = typeof MemberPosition.Type

export const MemberCursor = cursorOf(MemberPosition)

/** Which members a list shows; every filter given must hold. */
export const MemberFilter = Schema.Struct({
  roleId: Schema.optionalKey(RoleId),
  /** True: members who can act (both flags true); false: the others. */
  active: Schema.optionalKey(Schema.Boolean),
  /** A prefix of the username or the e-mail, compared ignoring case. */
  q: Schema.optionalKey(Schema.String.check(Schema.isBetweenLength(1, 254), isDisplayable))
})
export type MemberFilter = typeof MemberFilter.Type

/**
 * What a store is asked for: the filter, the position the page starts after, if any, and the roles
 * members must hold one of, when a list asks for the holders of a permission.
 */
export interface MemberQuery extends MemberFilter {
  readonly after?: MemberPosition
  readonly roleIds?: ReadonlyArray<RoleId>
}

/** The position of `member` in the list. */
export const memberPositionOf = (member: {
  readonly createdAt: MemberPosition["createdAt"]
  readonly id: MemberId
}) => ({ createdAt: member.createdAt, id: member.id }) satisfies MemberPosition
