import { loads } from "./loads.ts"
import { seedOpen } from "./seed.ts"
import { type Server, startBun } from "./servers.ts"
import { wrk } from "./wrk.ts"

export interface MetricsCost {
  /** Per endpoint, the median over rounds of metrics on's req/s over off's, less one: -0.03 is 3 % slower. */
  readonly byEndpoint: Record<string, number>
  readonly mean: number
}

const median = (values: ReadonlyArray<number>) => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? Number.NaN)
    : ((sorted[middle - 1] ?? Number.NaN) + (sorted[middle] ?? Number.NaN)) / 2
}

/**
 * What metrics cost, measured in pairs: Roster in open mode with metrics off and with them on, both
 * running at once on the server's core, each endpoint loaded on one then the other, `rounds` times in
 * alternating order. The machine's drift during a run (another tenant, a frequency change) then
 * weighs on both sides of each pair, which two subjects measured minutes apart cannot ensure; the
 * median of the pairs' ratios leaves out a pair a burst struck.
 */
export const pairedMetricsCost = async (options: {
  readonly seconds: number
  readonly rounds: number
  readonly connections: number
  readonly serverCore: number
  readonly loadCore: number
}): Promise<MetricsCost> => {
  const env = { ROSTER_PLANS_FILE: "config/plans.json", ROSTER_STORE: "memory" }
  const off = await startBun("app/main.ts", env, options.serverCore)
  const on = await startBun("app/main.ts", { ...env, ROSTER_METRICS: "on" }, options.serverCore)
  try {
    const list = loads(await seedOpen(off.base))
    await seedOpen(on.base)
    const load = { connections: options.connections, core: options.loadCore }
    const byEndpoint: Record<string, number> = {}
    for (const { name, requests } of list) {
      for (const server of [off, on]) await wrk(server.base, requests, { ...load, seconds: 1 })
      const ratios: Array<number> = []
      for (let round = 0; round < options.rounds; round++) {
        const rates = new Map<Server, number>()
        for (const server of round % 2 === 0 ? [off, on] : [on, off]) {
          rates.set(
            server,
            (await wrk(server.base, requests, { ...load, seconds: options.seconds })).requestsPerSecond
          )
        }
        ratios.push((rates.get(on) ?? Number.NaN) / (rates.get(off) ?? Number.NaN))
      }
      byEndpoint[name] = median(ratios) - 1
    }
    const costs = Object.values(byEndpoint)
    return { byEndpoint, mean: costs.reduce((sum, cost) => sum + cost, 0) / costs.length }
  } finally {
    await off.stop()
    await on.stop()
  }
}
