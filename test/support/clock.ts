/**
 * Runs `body` with `Date.now` (which Effect's clock, and so the service in process, reads) moved
 * `millis` ahead: what expires or ages by then has, at once and whatever the machine's load, with no
 * real waiting that a slow machine could overrun or fall short of.
 */
export const withClockAhead = async <A>(millis: number, body: () => Promise<A>) => {
  const realNow = Date.now
  Date.now = () => realNow() + millis
  try {
    return await body()
  } finally {
    Date.now = realNow
  }
}
