/**
 * How long each kind of bookkeeping a write leaves may stand before it is taken for what a dead
 * process left, and repaired: every one far past any request, which gives up within seconds. One
 * table, so that they are read and changed side by side.
 */
export const abandonedAfter = {
  /** A fence over what session snapshots copy (fences.ts): taken down, at start and every half of it. */
  fenceMs: 10 * 60 * 1000,
  /** A role's holder count claimed for a member never written (role-holders.ts): corrected to the holders. */
  roleClaimMs: 60_000,
  /** A new account marked pending until its membership is written (account-changes.ts): settled at start. */
  pendingAccountMs: 30_000
} as const
