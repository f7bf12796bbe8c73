import type { MemberQuery } from "../../core/index.ts"
import type { SqlValue } from "./connection.ts"
import { millis } from "./values.ts"

/** The WHERE of one page of members: every part is a condition on the sort's keys or an indexed column. */
export const memberConditions = (organizationId: string, query: MemberQuery) => {
  const conditions = ["m.organization_id = ?"]
  const params: Array<SqlValue> = [organizationId]
  const where = (condition: string, ...values: ReadonlyArray<SqlValue>) => {
    conditions.push(condition)
    params.push(...values)
  }
  if (query.after !== undefined) {
    const at = millis(query.after.createdAt)
    where("(m.created_at > ? OR (m.created_at = ? AND m.account_id > ?))", at, at, query.after.id)
  }
  if (query.roleId !== undefined) where("m.role_id = ?", query.roleId)
  if (query.active === true) where("m.active = 1 AND a.active = 1")
  if (query.active === false) where("(m.active = 0 OR a.active = 0)")
  if (query.q !== undefined) {
    const prefix = `${query.q.toLowerCase().replace(/[\\%_]/gu, "\\$&")}%`
    where("(a.username_key LIKE ? ESCAPE '\\' OR a.email LIKE ? ESCAPE '\\')", prefix, prefix)
  }
  return { conditions: conditions.join(" AND "), params }
}
