// What the MongoDB stores use of the consistency protocol (README.md beside this file): nothing
// else of this folder is imported from outside it. The verbs: a change with its entry
// (`auditedWrites`), a change of an account (`accountChanges`), a change behind a fence
// (`recordFence`, `sessionFences`, `roleHolders`), the relay (`relayingWhatTheyWrite`, and the audit
// log's own `relayEntry`), and the repairs at start and while running.
export { accountChanges } from "./account-changes.ts"
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
export { type AuditEntryDocument, notRemoved, toAuditDocument, toAuditEntry } from "./audit-document.ts"
export { auditedWrites, bookkeeping } from "./audited-writes.ts"
export { type Fenced, isFenced, type Snapshotted } from "./fences.ts"
export { recordFence, type Written } from "./record-fence.ts"
export { relayEntry, relayPending } from "./relay.ts"
export { relayBatches } from "./relay-batches.ts"
export { AuditRelay, relayingWhatTheyWrite } from "./relaying-writes.ts"
export { relayAtStart, repairAtStart, repairWhileRunning } from "./repairs.ts"
export { RoleDocument, roleDocumentsPage, type StoredRole, toRole } from "./role-documents.ts"
export { roleHolders } from "./role-holders.ts"
export { sessionFences } from "./session-fences.ts"
