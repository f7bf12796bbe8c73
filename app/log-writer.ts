/**
 * After the I/O of this turn of the event loop: `setImmediate` where the runtime has it (a timer
 * cost ~10 µs of a request's CPU under load, `setImmediate` ~2 µs).
 */
const afterThisTurn: (run: () => void) => void =
  typeof globalThis.setImmediate === "function" ? (run) => setImmediate(run) : (run) => setTimeout(run, 0)

/**
 * Log lines gathered and written once per turn of the event loop: a synchronous write per request
 * halves the throughput of a busy server (measured by `npm run bench`). `flush` on shutdown.
 */
export const makeLogWriter = (write: (chunk: string) => void) => {
  let pending: Array<string> = []
  const flush = () => {
    if (pending.length === 0) return
    const chunk = `${pending.join("\n")}\n`
    pending = []
    write(chunk)
  }
  const line = (text: string) => {
    if (pending.push(text) === 1) afterThisTurn(flush)
  }
  return { line, flush }
}
