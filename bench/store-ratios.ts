/** A subject's throughput by load, as `run.ts` measured it. */
interface Measured {
  readonly label: string
  readonly results: Record<string, { readonly requestsPerSecond: number }>
}

/** The loads the default store is held to, against the in-memory store in the same run (DESIGN: SQLite reads ≥ 0.8×, audited writes ≥ 0.5×). */
const compared = [
  ["a session read", "GET /api/v1/auth/me", 0.8],
  ["a list (members)", "GET /api/v1/team/members", 0.8],
  ["a list (roles)", "GET /api/v1/team/roles", 0.8],
  ["an audited write", "PATCH /api/v1/team/roles/1 (audited)", 0.5]
] as const

export interface StoreRatio {
  readonly what: string
  readonly load: string
  readonly memory: number
  readonly sqlite: number
  readonly ratio: number
  readonly goal: number
}

/** SQLite's throughput over memory's for each compared load, both with a member's session. */
export const storeRatios = (memory: Measured | undefined, sqlite: Measured | undefined): Array<StoreRatio> =>
  memory === undefined || sqlite === undefined
    ? []
    : compared.flatMap(([what, load, goal]) => {
        const inMemory = memory.results[load]?.requestsPerSecond
        const onSqlite = sqlite.results[load]?.requestsPerSecond
        if (inMemory === undefined || onSqlite === undefined) return []
        return [{ what, load, memory: inMemory, sqlite: onSqlite, ratio: onSqlite / inMemory, goal }]
      })

export const printStoreRatios = (ratios: ReadonlyArray<StoreRatio>) => {
  if (ratios.length === 0) return
  console.log("\nSQLite against the in-memory store, a member's session, in this run")
  console.log(
    `  ${"".padEnd(20)}${"endpoint".padEnd(40)}${"memory".padStart(9)}${"SQLite".padStart(9)}${"ratio".padStart(7)}  goal`
  )
  for (const r of ratios)
    console.log(
      `  ${r.what.padEnd(20)}${r.load.padEnd(40)}${r.memory.toFixed(0).padStart(9)}${r.sqlite.toFixed(0).padStart(9)}` +
        `${r.ratio.toFixed(2).padStart(7)}  ≥ ${r.goal}${r.ratio >= r.goal ? "" : "  (below)"}`
    )
}
