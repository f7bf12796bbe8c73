/**
 * Reads until what is read is done, for what Roster settles just after a test can observe it
 * (a delivery recorded after the receiver answered, a key's last use written after its answer).
 */
export const eventually = async <A>(
  read: () => Promise<A>,
  done: (value: A) => boolean,
  { timeoutMs = 20_000, intervalMs = 100 }: { readonly timeoutMs?: number; readonly intervalMs?: number } = {}
): Promise<A> => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await read()
    if (done(value)) return value
    if (Date.now() > deadline)
      throw new Error(`never came to pass within ${timeoutMs} ms: ${JSON.stringify(value)}`)
    await new Promise((resolve) => setTimeout(resolve, intervalMs))
  }
}
