import type { MemberStore } from "../core/index.ts"

/** What `MemberStore` reads, which each store answers apart from what it writes. */
export type MemberStoreReads = Pick<
  MemberStore["Service"],
  | "findById"
  | "findAccount"
  | "findByLogin"
  | "findByLogins"
  | "membershipsOf"
  | "findWithMemberships"
  | "page"
  | "countActive"
>
