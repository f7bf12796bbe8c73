export interface Load {
  readonly method: string
  readonly path: string
  readonly body?: string
}

export interface Measured {
  readonly requestsPerSecond: number
  readonly p99Ms: number
  readonly statuses: ReadonlyArray<number>
}

/** Keeps `connections` requests in flight against one endpoint for `seconds`, recording each latency. */
export const measure = async (
  base: string,
  load: Load,
  connections: number,
  seconds: number
): Promise<Measured> => {
  const latencies: Array<number> = []
  const statuses = new Set<number>()
  const until = performance.now() + seconds * 1000
  const worker = async () => {
    while (performance.now() < until) {
      const started = performance.now()
      const response = await fetch(base + load.path, {
        method: load.method,
        headers: { "content-type": "*/*" },
        ...(load.body === undefined ? {} : { body: load.body })
      })
      await response.arrayBuffer()
      latencies.push(performance.now() - started)
      statuses.add(response.status)
    }
  }
  await Promise.all(Array.from({ length: connections }, worker))
  latencies.sort((a, b) => a - b)
  return {
    requestsPerSecond: latencies.length / seconds,
    p99Ms: latencies[Math.floor(latencies.length * 0.99)] ?? Number.NaN,
    statuses: [...statuses]
  }
}
