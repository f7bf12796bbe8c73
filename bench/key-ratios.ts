/** A subject's throughput by load, as `run.ts` measured it. */
interface Measured {
  readonly label: string
  readonly results: Record<string, { readonly requestsPerSecond: number }>
}

/** The reads an API key is held to, against a member's session on the same store in the same run (≥ 0.95×). */
const compared = ["GET /api/v1/auth/me", "GET /api/v1/team/members", "GET /api/v1/team/roles"] as const
const goal = 0.95

export interface KeyRatio {
  readonly store: string
  readonly load: string
  readonly session: number
  readonly key: number
  readonly ratio: number
  readonly goal: number
}

/** An API key's throughput over a session's for each compared read, on `store`. */
export const keyRatios = (
  store: string,
  session: Measured | undefined,
  key: Measured | undefined
): Array<KeyRatio> =>
  session === undefined || key === undefined
    ? []
    : compared.flatMap((load) => {
        const bySession = session.results[load]?.requestsPerSecond
        const byKey = key.results[load]?.requestsPerSecond
        if (bySession === undefined || byKey === undefined) return []
        return [{ store, load, session: bySession, key: byKey, ratio: byKey / bySession, goal }]
      })

export const printKeyRatios = (ratios: ReadonlyArray<KeyRatio>) => {
  if (ratios.length === 0) return
  console.log("\nAn API key against a member's session, same permissions, in this run")
  console.log(
    `  ${"store".padEnd(9)}${"endpoint".padEnd(40)}${"session".padStart(9)}${"API key".padStart(9)}${"ratio".padStart(7)}  goal`
  )
  for (const r of ratios)
    console.log(
      `  ${r.store.padEnd(9)}${r.load.padEnd(40)}${r.session.toFixed(0).padStart(9)}${r.key.toFixed(0).padStart(9)}` +
        `${r.ratio.toFixed(2).padStart(7)}  ≥ ${r.goal}${r.ratio >= r.goal ? "" : "  (below)"}`
    )
}
