// What a run's ratios were against the figures committed in bench/baseline.json (measured here,
// dated): a report of every ratio more than 15 % below its baseline, so a feature's note shows what
// it cost. Not a gate: one machine's runs vary by about that much. `BENCH_BASELINE=write` records
// this run's ratios as the new baseline.
import { existsSync, readFileSync, writeFileSync } from "node:fs"

interface Measured {
  readonly label: string
  readonly results: Record<string, { readonly requestsPerSecond: number }>
}

/** Each subject's throughput on each load over the bare HttpApi app's on that load's floor. */
export type FloorRatios = Record<string, number>

const path = "bench/baseline.json"
const allowedDrop = 0.15

/** `subject | load` → the subject's throughput over the floor's, for every subject and load measured. */
export const floorRatiosOf = (
  subjects: ReadonlyArray<Measured>,
  floorOf: (load: string) => number | undefined
): FloorRatios => {
  const ratios: FloorRatios = {}
  for (const subject of subjects) {
    for (const [load, measured] of Object.entries(subject.results)) {
      const floor = floorOf(load)
      if (floor !== undefined && floor > 0)
        ratios[`${subject.label} | ${load}`] = measured.requestsPerSecond / floor
    }
  }
  return ratios
}

/**
 * Prints each ratio more than 15 % below the baseline's, and writes this run's as the baseline when
 * asked to (`BENCH_BASELINE=write`). Answers what fell, for the results file.
 */
export const againstBaseline = (ratios: FloorRatios) => {
  if (process.env.BENCH_BASELINE === "write") {
    writeFileSync(
      path,
      `${JSON.stringify({ measured: new Date().toISOString().slice(0, 10), ratios }, null, 2)}\n`
    )
    console.log(`\nwritten: ${path} (this run's ratios to the bare HttpApi app, the new baseline)`)
    return []
  }
  if (!existsSync(path)) return []
  const baseline = JSON.parse(readFileSync(path, "utf8")) as { measured: string; ratios: FloorRatios }
  const fell = Object.entries(ratios).flatMap(([key, ratio]) => {
    const before = baseline.ratios[key]
    return before !== undefined && ratio < before * (1 - allowedDrop) ? [{ key, before, now: ratio }] : []
  })
  console.log(
    `\nagainst the baseline of ${baseline.measured} (${path}): ${fell.length === 0 ? "no ratio to the bare HttpApi app more than 15 % below it" : "ratios to the bare HttpApi app more than 15 % below it:"}`
  )
  for (const { key, before, now } of fell) {
    console.log(
      `  ${key.padEnd(90)} ${now.toFixed(2)} (was ${before.toFixed(2)}, ${(((now - before) / before) * 100).toFixed(0)} %)`
    )
  }
  return fell
}
