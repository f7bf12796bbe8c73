import { DateTime } from "effect"
import type { Filter } from "mongodb"
import type { MemberQuery } from "../../core/index.ts"

interface FilteredFields {
  readonly _id: string
  readonly accountId: string
  readonly usernameKey: string
  readonly email: string
  readonly activestatus: boolean
  readonly accountActiveStatus: boolean
  readonly roleId: number
  readonly createdAt: Date
}

export const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/gu, "\\$&")

/**
 * The query of one page of members. Every part is a condition on the sort's own keys or on a field
 * of an index (see `indexes.ts`), so a page is one indexed read from the cursor on, never a skip.
 */
export const memberFilter = (query: MemberQuery): Filter<FilteredFields> => {
  const conditions: Array<Filter<FilteredFields>> = []
  if (query.after !== undefined) {
    const createdAt = DateTime.toDateUtc(query.after.createdAt)
    conditions.push({
      $or: [{ createdAt: { $gt: createdAt } }, { createdAt, accountId: { $gt: query.after.id } }]
    })
  }
  if (query.roleId !== undefined) conditions.push({ roleId: query.roleId })
  if (query.roleIds !== undefined) conditions.push({ roleId: { $in: [...query.roleIds] } })
  if (query.active === true) conditions.push({ activestatus: true, accountActiveStatus: true })
  if (query.active === false) {
    conditions.push({ $or: [{ activestatus: false }, { accountActiveStatus: false }] })
  }
  if (query.q !== undefined) {
    // A case-sensitive anchored prefix on lower-cased fields: the kind of regular expression an index serves.
    const prefix = { $regex: `^${escapeRegExp(query.q.toLowerCase())}` }
    conditions.push({ $or: [{ usernameKey: prefix }, { email: prefix }] })
  }
  return conditions.length === 0 ? {} : { $and: conditions }
}
