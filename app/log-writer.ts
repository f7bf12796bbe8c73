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
    if (pending.push(text) === 1) setTimeout(flush, 0)
  }
  return { line, flush }
}
