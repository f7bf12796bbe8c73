import type { Context } from "effect"
import { AccessTokenSigner } from "./access-token-signer.ts"
import { AccountMail } from "./account-mail.ts"
import { AccountTokenStore } from "./account-token-store.ts"
import { ApiKeyStore } from "./api-key-store.ts"
import { AuditLog } from "./audit-log.ts"
import { AuthSettings } from "./auth-settings.ts"
import { DeliveryPolicy } from "./delivery-policy.ts"
import { DeliveryStore } from "./delivery-store.ts"
import { DnsRecords } from "./dns-records.ts"
import { DomainStore } from "./domain-store.ts"
import { EventSource } from "./event-source.ts"
import { IdGenerator } from "./id-generator.ts"
import { IdempotencyStore } from "./idempotency-store.ts"
import { IdentityProviders } from "./identity-providers.ts"
import { InvitationMail } from "./invitation-mail.ts"
import { InvitationStore } from "./invitation-store.ts"
import { LoginThrottleStore } from "./login-throttle-store.ts"
import { MemberStore } from "./member-store.ts"
import { MfaStore } from "./mfa-store.ts"
import { OrganizationStore } from "./organization-store.ts"
import { PasskeyStore } from "./passkey-store.ts"
import { PasswordHasher } from "./password-hasher.ts"
import { PaymentInbox } from "./payment-inbox.ts"
import { PaymentProvider } from "./payment-provider.ts"
import { PlanCatalog } from "./plan-catalog.ts"
import { ProductPermissionStore } from "./product-permission-store.ts"
import { ProvisioningStore } from "./provisioning-store.ts"
import { RecoveryCodes } from "./recovery-codes.ts"
import { RoleLookup } from "./role-lookup.ts"
import { RolePermissionStore } from "./role-permission-store.ts"
import { RoleStore } from "./role-store.ts"
import { ScimTokenStore } from "./scim-token-store.ts"
import { SealedSecrets } from "./sealed-secrets.ts"
import { SecretBox } from "./secret-box.ts"
import { SessionLookup } from "./session-lookup.ts"
import { SessionStore } from "./session-store.ts"
import { SigningKeyStore } from "./signing-key-store.ts"
import { SsoConnectionStore } from "./sso-connection-store.ts"
import { SsoLoginStore } from "./sso-login-store.ts"
import { StoreHealth } from "./store-health.ts"
import { SubscriptionStore } from "./subscription-store.ts"
import { TokenIssuer } from "./token-issuer.ts"
import { Totp } from "./totp.ts"
import { WebAuthn } from "./webauthn.ts"
import { WebhookSender } from "./webhook-sender.ts"
import { WebhookStore } from "./webhook-store.ts"

/**
 * Every port a store implements: each store adapter (memory, SQLite, MongoDB) provides all of them,
 * which its layer's type (`Layer<StorePorts>`) holds it to. The one list of them: compositions,
 * tracing and the services a handler runs on are derived from it.
 */
export const storePorts = [
  AccountTokenStore,
  ApiKeyStore,
  AuditLog,
  DeliveryStore,
  DomainStore,
  EventSource,
  IdempotencyStore,
  InvitationStore,
  LoginThrottleStore,
  MemberStore,
  MfaStore,
  OrganizationStore,
  PasskeyStore,
  PaymentInbox,
  ProductPermissionStore,
  ProvisioningStore,
  RoleLookup,
  RolePermissionStore,
  RoleStore,
  ScimTokenStore,
  SealedSecrets,
  SessionLookup,
  SessionStore,
  SigningKeyStore,
  SsoConnectionStore,
  SsoLoginStore,
  StoreHealth,
  SubscriptionStore,
  WebhookStore
] as const
export type StorePorts = Context.Service.Identifier<(typeof storePorts)[number]>

/** The core's other ports: what the service is set to, and what it calls beside its store. */
export const servicePorts = [
  AccessTokenSigner,
  AccountMail,
  AuthSettings,
  DeliveryPolicy,
  DnsRecords,
  IdGenerator,
  IdentityProviders,
  InvitationMail,
  PasswordHasher,
  PaymentProvider,
  PlanCatalog,
  RecoveryCodes,
  SecretBox,
  TokenIssuer,
  Totp,
  WebAuthn,
  WebhookSender
] as const
export type ServicePorts = Context.Service.Identifier<(typeof servicePorts)[number]>

/** Every port of the core: what running every use case takes. */
export type CorePorts = StorePorts | ServicePorts
