const requestIdPattern = /^[A-Za-z0-9._:-]{1,128}$/

// A random prefix per process and a counter: unique across instances without a UUID per request.
const prefix = crypto.randomUUID().slice(0, 13)
let counter = 0

/** The client's `X-Request-Id` when it is a sane token, else a fresh one. */
export const requestIdOf = (incoming: string | null | undefined) =>
  incoming != null && requestIdPattern.test(incoming) ? incoming : `${prefix}${(counter++).toString(36)}`
