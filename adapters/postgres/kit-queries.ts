import { DateTime } from "effect"
import {
  type AnyOf,
  type ColumnValue,
  columnOf,
  conditionsOf,
  isAnyOf,
  isRange,
  keyOf,
  type Order,
  type Resource,
  type Where
} from "../resources/resource.ts"

/** A column's value as bound: an instant as ISO text, a set or array field's values as JSON, none as NULL. */
export const pgValueOf = (value: ColumnValue): string | number | boolean | null => {
  if (value === undefined || value === null) return null
  if (DateTime.isDateTime(value)) return DateTime.formatIso(value)
  return Array.isArray(value) ? JSON.stringify(value) : (value as string | number | boolean)
}

/** Values bound in order, each answering its placeholder (`$1`, `$2`…). */
export const binder = () => {
  const params: Array<unknown> = []
  return { params, bind: (value: unknown) => `$${params.push(value)}` }
}

/** The SQL of a resource's conditions and orders on its table (`columnSql` names a column there). */
export const queriesOf = <R extends object>(
  declared: Resource<R>,
  table: string,
  columnSql: (column: string) => string
) => {
  /** A where's SQL, its clauses joined by OR, in parentheses whole (what follows is ANDed with all of it). */
  const whereSql = (where: AnyOf<string>, bind: (value: unknown) => string): string => {
    if (!isAnyOf(where)) return clauseSql(where, bind)
    if (where.length === 0) return "FALSE"
    return `(${where.map((clause) => `(${clauseSql(clause, bind)})`).join(" OR ")})`
  }

  /** A where clause's SQL, its values bound by `bind`. */
  const clauseSql = (where: Where<string>, bind: (value: unknown) => string) => {
    const parts: Array<string> = []
    for (const [column, condition] of conditionsOf(where)) {
      const name = columnSql(column)
      if (!isRange(condition)) {
        const value = pgValueOf(condition)
        parts.push(value === null ? `${name} IS NULL` : `${name} = ${bind(value)}`)
        continue
      }
      const ranges: Array<string> = []
      for (const [operator, bound] of [
        ["<", condition.lt],
        ["<=", condition.lte],
        [">", condition.gt],
        [">=", condition.gte]
      ] as const) {
        if (bound !== undefined) ranges.push(`${name} ${operator} ${bind(pgValueOf(bound))}`)
      }
      if (condition.in !== undefined) ranges.push(`${name} = ANY(${bind(condition.in.map(pgValueOf))})`)
      if (condition.present === true) ranges.push(`${name} IS NOT NULL`)
      // `<> ALL` of no values holds even for none held: none is left out on its own.
      if (condition.notIn !== undefined) {
        ranges.push(`${name} IS NOT NULL AND ${name} <> ALL(${bind(condition.notIn.map(pgValueOf))})`)
      }
      // ILIKE folds case as the server's locale does; `\` escapes the pattern's own characters.
      if (condition.startsWith !== undefined) {
        ranges.push(
          `${name} ILIKE ${bind(`${condition.startsWith.replace(/[\\%_]/gu, "\\$&")}%`)} ESCAPE '\\'`
        )
      }
      if (condition.includes !== undefined) {
        ranges.push(`${name} @> ${bind(JSON.stringify([condition.includes]))}::jsonb`)
      }
      const all = ranges.length === 0 ? "TRUE" : ranges.join(" AND ")
      parts.push(condition.orNone === true ? `(${name} IS NULL OR (${all}))` : `(${all})`)
    }
    return parts.length === 0 ? "TRUE" : parts.join(" AND ")
  }

  /** A select of the records `where` finds, in `order` when given, with the values it binds. */
  const selectSql = (where: AnyOf<string>, order?: Order<R, string>, suffix = "") => {
    const { params, bind } = binder()
    const conditions = [whereSql(where, bind)]
    let ordering = ""
    if (order !== undefined) {
      const descending = order.descending === true
      const named = [...order.by.map(columnSql), '"key"']
      if (order.after !== undefined) {
        const after = order.after as R
        const values = [
          ...order.by.map((column) => pgValueOf(columnOf(declared, column, after))),
          keyOf(declared, after)
        ]
        conditions.push(`(${named.join(", ")}) ${descending ? "<" : ">"} (${values.map(bind).join(", ")})`)
      }
      // NULLs first ascending, as SQLite and the memory store order them.
      const direction = descending ? "DESC NULLS LAST" : "ASC NULLS FIRST"
      ordering = ` ORDER BY ${named.map((name) => `${name} ${direction}`).join(", ")}${
        order.limit === undefined ? "" : ` LIMIT ${Math.max(0, Math.trunc(order.limit))}`
      }`
    }
    return {
      sql: `SELECT "key", "document" FROM ${table} WHERE ${conditions.join(" AND ")}${ordering}${suffix}`,
      params
    }
  }

  return { whereSql, selectSql, binder }
}
