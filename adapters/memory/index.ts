export { makeLoginThrottleStore } from "./login-throttle-store.ts"
export { makeMemberStore } from "./member-store.ts"
export { makePaymentInbox } from "./payment-inbox.ts"
export { planCatalogLayer } from "./plan-catalog.ts"
export { makeRolePermissionStore } from "./role-permission-store.ts"
export { makeRoleStore } from "./role-store.ts"
export {
  authSettingsLayer,
  defaultThrottle,
  type InMemoryRosterOptions,
  inMemoryRoster,
  rosterOn
} from "./roster-layer.ts"
export { makeSessionStore } from "./session-store.ts"
export { MemoryStores } from "./stores.ts"
export { makeSubscriptionStore } from "./subscription-store.ts"
