export { recordingAccountMail } from "./account-mail.ts"
export { auditLogLayer, auditTrailLayer, MemoryAuditTrail } from "./audit-log.ts"
export { recordingInvitationMail } from "./invitation-mail.ts"
export { memoryKitLayer } from "./kit.ts"
export { makeLoginThrottleStore } from "./login-throttle-store.ts"
export { makeMemberStore } from "./member-store.ts"
export {
  type MemoryPaymentProvider,
  makeMemoryPaymentProvider,
  type ProviderCall,
  providerOperations
} from "./payment-provider.ts"
export { planCatalogLayer } from "./plan-catalog.ts"
export { MemoryRoleHolders, roleHoldersLayer } from "./role-holders.ts"
export { composedRoleLookupLayer } from "./role-lookup.ts"
export { makeRolePermissionStore } from "./role-permission-store.ts"
export { makeRoleStore } from "./role-store.ts"
export { composedSessionLookupLayer } from "./session-lookup.ts"
export { MemoryStores } from "./stores.ts"
