// What the MongoDB stores use of the consistency protocol (README.md beside this file): nothing
// else of this folder is imported from outside it.
export { liftAbandonedFences } from "./abandoned-fences.ts"
export { accountChanges, settleAccounts } from "./account-changes.ts"
export type { Copied } from "./account-copies.ts"
export {
  AccountDocument,
  copiedFrom,
  MembershipDocument,
  notNewerThan,
  toAccount,
  toAccountDocument,
  toMembership,
  toMembershipDocument
} from "./account-documents.ts"
export {
  type AuditEntryDocument,
  notRemoved,
  Outbox,
  pushEntry,
  Removed,
  toAuditDocument,
  toAuditEntry,
  withEntry
} from "./audit-document.ts"
export { abandonedAfterMs, type Fenced, isFenced, type Snapshotted } from "./fences.ts"
export { recordFence, type Written } from "./record-fence.ts"
export { relayEntry, relayPending } from "./relay.ts"
export { relayBatches } from "./relay-batches.ts"
export { noteLeft } from "./relay-hints.ts"
export { AuditRelay, relayingWhatTheyWrite } from "./relaying-writes.ts"
export { countUncountedHolders, roleHolders } from "./role-holders.ts"
export { sessionFences } from "./session-fences.ts"
