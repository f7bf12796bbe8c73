/** A subject's throughput by load, as `run.ts` measured it. */
interface Measured {
  readonly label: string
  readonly results: Record<string, { readonly requestsPerSecond: number }>
}

/** What is compared: a name for the row, the load, and the least ratio the goal allows. */
type Compared = ReadonlyArray<readonly [what: string, load: string, goal: number]>

export interface Ratio {
  readonly what: string
  readonly load: string
  readonly reference: number
  readonly subject: number
  readonly ratio: number
  readonly goal: number
}

/** `subject`'s throughput over `reference`'s for each compared load both measured, in one run. */
export const ratiosOf = (
  compared: Compared,
  reference: Measured | undefined,
  subject: Measured | undefined
): Array<Ratio> =>
  reference === undefined || subject === undefined
    ? []
    : compared.flatMap(([what, load, goal]) => {
        const before = reference.results[load]?.requestsPerSecond
        const after = subject.results[load]?.requestsPerSecond
        if (before === undefined || after === undefined) return []
        return [{ what, load, reference: before, subject: after, ratio: after / before, goal }]
      })

/** The loads the default store is held to, against the in-memory store (SQLite reads ≥ 0.8×, audited writes ≥ 0.5×). */
export const storeCompared: Compared = [
  ["a session read", "GET /api/v1/auth/me", 0.8],
  ["a list (members)", "GET /api/v1/team/members", 0.8],
  ["a list (roles)", "GET /api/v1/team/roles", 0.8],
  ["an audited write", "PATCH /api/v1/team/roles/1 (audited)", 0.5]
]

/** The reads an API key is held to, against a member's session on the same store (≥ 0.95×). */
export const keyCompared = (store: string): Compared =>
  ["GET /api/v1/auth/me", "GET /api/v1/team/members", "GET /api/v1/team/roles"].map(
    (load) => [store, load, 0.95] as const
  )

export const printRatios = (
  title: string,
  columns: readonly [string, string],
  ratios: ReadonlyArray<Ratio>
) => {
  if (ratios.length === 0) return
  console.log(`\n${title}`)
  console.log(
    `  ${"".padEnd(20)}${"endpoint".padEnd(40)}${columns[0].padStart(9)}${columns[1].padStart(9)}${"ratio".padStart(7)}  goal`
  )
  for (const r of ratios)
    console.log(
      `  ${r.what.padEnd(20)}${r.load.padEnd(40)}${r.reference.toFixed(0).padStart(9)}${r.subject.toFixed(0).padStart(9)}` +
        `${r.ratio.toFixed(2).padStart(7)}  ≥ ${r.goal}${r.ratio >= r.goal ? "" : "  (below)"}`
    )
}

/** A subject measured, as `run.ts` keeps it: its throughput and tails by load, and the login flood's end. */
interface Subject extends Measured {
  readonly results: Record<string, { readonly requestsPerSecond: number; readonly p99Ms: number }>
  readonly flood?: { readonly rssAfterMb: number }
}

/** The request path's goals (issue 63), each against what this run measured; `-` where it was not measured. */
export const printTargets = (
  subjects: ReadonlyArray<Subject>,
  floorRatios: Record<string, number>,
  storeRatios: ReadonlyArray<Ratio>,
  againstBetterAuth: ReadonlyArray<{ readonly load: string; readonly ratio: number }>
) => {
  const open = "Roster, open mode"
  const session = "Roster, secure, session token"
  const ofFloor = (subject: string, load: string) => floorRatios[`${subject} | ${load}`]
  const reads = ["GET /api/v1/team/roles", "GET /api/v1/auth/me", "GET /api/v1/team/members"]
  const worstReadP99 = Math.max(
    ...subjects
      .filter((subject) => subject.label === open || subject.label === session)
      .flatMap((subject) => reads.map((load) => subject.results[load]?.p99Ms ?? 0))
  )
  const rows: ReadonlyArray<readonly [string, number | undefined, string, (value: number) => boolean]> = [
    ["open mode, roles list ×bare", ofFloor(open, reads[0] ?? ""), "≥ 0.40", (v) => v >= 0.4],
    [
      "open mode, POST 409 ×bare",
      ofFloor(open, "POST /api/v1/team/role/add (409)"),
      "≥ 0.50",
      (v) => v >= 0.5
    ],
    ["session, auth/me ×bare", ofFloor(session, "GET /api/v1/auth/me"), "≥ 0.30", (v) => v >= 0.3],
    ["session, members list ×bare", ofFloor(session, "GET /api/v1/team/members"), "≥ 0.30", (v) => v >= 0.3],
    ["reads, worst p99 ms", Number.isFinite(worstReadP99) ? worstReadP99 : undefined, "≤ 15", (v) => v <= 15],
    ...storeRatios
      .filter((ratio) => ratio.load === "GET /api/v1/auth/me" || ratio.load === "GET /api/v1/team/members")
      .map(
        (ratio) => [`SQLite/memory, ${ratio.what}`, ratio.ratio, "≥ 0.95", (v: number) => v >= 0.95] as const
      ),
    ...againstBetterAuth.map(
      (row) => [`SQLite ×Better Auth, ${row.load}`, row.ratio, "≥ 8", (v: number) => v >= 8] as const
    ),
    [
      "login flood, RSS at its end MB",
      subjects.find((subject) => subject.label === session)?.flood?.rssAfterMb,
      "≤ 150",
      (v) => v <= 150
    ]
  ]
  console.log("\nthe request path's goals, in this run")
  for (const [what, value, goal, met] of rows) {
    const shown = value === undefined ? "-" : value.toFixed(2)
    console.log(
      `  ${what.padEnd(48)}${shown.padStart(9)}  ${goal}${value === undefined || met(value) ? "" : "  (below)"}`
    )
  }
}
