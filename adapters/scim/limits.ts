/** The most resources one list answers; `count` above it is lowered to it. */
export const maxResults = 1000

/** Bulk operations are not served, and said so. */
export const bulkOff = { supported: false, maxOperations: 0, maxPayloadSize: 0 }
