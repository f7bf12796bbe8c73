import type { MemberQuery } from "../../core/index.ts"
import { likePrefix, millis, whereClause } from "./values.ts"

/** The WHERE of one page of members: every part is a condition on the sort's keys or an indexed column. */
export const memberConditions = (organizationId: string, query: MemberQuery) => {
  const where = whereClause("m.organization_id = ?", organizationId)
  if (query.after !== undefined) {
    const at = millis(query.after.createdAt)
    where.and("(m.created_at > ? OR (m.created_at = ? AND m.account_id > ?))", at, at, query.after.id)
  }
  if (query.roleId !== undefined) where.and("m.role_id = ?", query.roleId)
  if (query.roleIds !== undefined)
    where.and(`m.role_id IN (${query.roleIds.map(() => "?").join(", ")})`, ...query.roleIds)
  if (query.active === true) where.and("m.active = 1 AND a.active = 1")
  if (query.active === false) where.and("(m.active = 0 OR a.active = 0)")
  if (query.q !== undefined) {
    const prefix = likePrefix(query.q)
    where.and("(a.username_key LIKE ? ESCAPE '\\' OR a.email LIKE ? ESCAPE '\\')", prefix, prefix)
  }
  return where
}
