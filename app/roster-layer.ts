import { Duration, Layer, Option, Redacted } from "effect"
import {
  accessTokenSignerLayer,
  CryptoServices,
  hashToken,
  recoveryCodesLayer,
  type ScryptParameters,
  secretBoxLayer
} from "../adapters/crypto/index.ts"
import { type DnsOptions, dnsRecordsLayer } from "../adapters/dns/dns-records.ts"
import { RequestLog } from "../adapters/http/edge/request-log.ts"
import { noAccountMailLayer } from "../adapters/mail/no-account-mail.ts"
import { noInvitationMailLayer } from "../adapters/mail/no-invitation-mail.ts"
import { MemoryStores, planCatalogLayer } from "../adapters/memory/index.ts"
import { noPaymentProviderLayer } from "../adapters/payments/no-payment-provider.ts"
import { webhookVerifierLayer } from "../adapters/payments/webhook-verifier-layer.ts"
import { identityProvidersLayer } from "../adapters/sso/identity-providers.ts"
import {
  passkeysOffLayer,
  type RelyingPartyOptions,
  webAuthnLayer
} from "../adapters/webauthn/webauthn-layer.ts"
import {
  httpWebhookSenderLayer,
  type WebhookSenderOptions
} from "../adapters/webhooks/http-webhook-sender.ts"
import {
  type AccountMail,
  AuthSettings,
  DeliveryPolicy,
  type InvitationMail,
  type PaymentProvider,
  type Plan,
  type SecretBox,
  type ThrottlePolicy
} from "../core/index.ts"

export interface RosterOptions {
  readonly plans?: ReadonlyArray<Plan>
  /** Without a master key the core runs in open local mode: anonymous callers have full access. */
  readonly masterKey?: string
  readonly sessionTtl?: Duration.Input
  readonly throttle?: Partial<ThrottlePolicy>
  readonly scrypt?: ScryptParameters
  /** Who charges for subscriptions; without one, none is called (see `noPaymentProviderLayer`). */
  readonly paymentProvider?: Layer.Layer<PaymentProvider>
  /** Whether anyone may sign up, opening an organisation of their own; closed by default. */
  readonly signupOpen?: boolean
  /** How long an invitation may be accepted; 7 days when absent. */
  readonly invitationTtl?: Duration.Input
  /** Who delivers invitations; without one, their creator gets the token (see `noInvitationMailLayer`). */
  readonly invitationMail?: Layer.Layer<InvitationMail>
  /** Who mails password reset and verification links; without one, neither is offered (see `noAccountMailLayer`). */
  readonly accountMail?: Layer.Layer<AccountMail>
  /** How long a mailed password reset link may be used; 1 hour when absent. */
  readonly resetTtl?: Duration.Input
  /** How long a mailed verification link may be used; 24 hours when absent. */
  readonly verificationTtl?: Duration.Input
  /**
   * The keys secrets are kept encrypted under (TOTP secrets, single sign-on keys and client secrets):
   * the first seals, each opens. Without one, a deployment with a master key refuses to enrol TOTP or
   * to make a single sign-on connection.
   */
  readonly secretsKeys?: ReadonlyArray<string | Redacted.Redacted<string>>
  /** How outbound events are sent (see `docs/events.md`); https to public addresses, Svix's schedule, when absent. */
  readonly webhooks?: Partial<WebhookSenderOptions> & {
    /** The waits between a delivery's tries; one try more than waits. */
    readonly retrySchedule?: ReadonlyArray<Duration.Input>
    /** How long a claimed try is held before another instance may take it; 2 minutes when absent. */
    readonly lease?: Duration.Input
  }
  /** Single sign-on: the DNS servers proving a domain asks, the URLs a sign-in may return to. */
  readonly sso?: DnsOptions & {
    readonly returnUrls?: ReadonlyArray<string>
  }
  /** Access tokens: how long they live (300 s when absent) and the audience they name (`roster`). */
  readonly accessTokens?: { readonly seconds?: number; readonly audience?: string }
  /**
   * Passkeys' relying party; `localhost` and `http://localhost:3000` when absent; `"off"`: every
   * passkey ceremony is refused with `PasskeysUnavailable` (see `docs/passkeys.md`).
   */
  readonly passkeys?: RelyingPartyOptions | "off"
}

/** Svix's schedule: tries after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h, eight in all. */
export const defaultRetrySchedule = [
  Duration.seconds(5),
  Duration.minutes(5),
  Duration.minutes(30),
  Duration.hours(2),
  Duration.hours(5),
  Duration.hours(10),
  Duration.hours(10)
]

export const deliveryPolicyLayer = (options: RosterOptions["webhooks"] = {}) =>
  Layer.succeed(
    DeliveryPolicy,
    DeliveryPolicy.of({
      retrySchedule:
        options.retrySchedule?.map((wait) => Duration.fromInputUnsafe(wait)) ?? defaultRetrySchedule,
      disableAfter: Duration.days(5),
      // Far past a try's 15 s: only a sender that stopped leaves a claim to run out.
      lease: Duration.fromInputUnsafe(options.lease ?? Duration.minutes(2)),
      batchSize: 50
    })
  )

export const defaultThrottle: ThrottlePolicy = {
  window: Duration.minutes(15),
  maxFailuresPerAccount: 5,
  maxFailuresPerClient: 50
}

export const authSettingsLayer = (
  options: Pick<
    RosterOptions,
    | "masterKey"
    | "sessionTtl"
    | "throttle"
    | "signupOpen"
    | "invitationTtl"
    | "resetTtl"
    | "verificationTtl"
    | "sso"
    | "accessTokens"
  >
) =>
  Layer.succeed(
    AuthSettings,
    AuthSettings.of({
      masterKeyHash: Option.fromNullishOr(options.masterKey).pipe(Option.map(hashToken)),
      sessionTtl: Duration.fromInputUnsafe(options.sessionTtl ?? Duration.hours(12)),
      throttle: { ...defaultThrottle, ...options.throttle },
      signupOpen: options.signupOpen === true,
      invitationTtl: Duration.fromInputUnsafe(options.invitationTtl ?? Duration.days(7)),
      resetTtl: Duration.fromInputUnsafe(options.resetTtl ?? Duration.hours(1)),
      verificationTtl: Duration.fromInputUnsafe(options.verificationTtl ?? Duration.hours(24)),
      ssoReturnUrls: options.sso?.returnUrls ?? [],
      ...(options.accessTokens?.seconds === undefined
        ? {}
        : { accessTokenLifetime: Duration.seconds(options.accessTokens.seconds) }),
      ...(options.accessTokens?.audience === undefined
        ? {}
        : { tokenAudience: options.accessTokens.audience })
    })
  )

/** The key secrets are sealed under, and the access token signer, which opens signing keys with it. */
const boxAndSigner = (box: Layer.Layer<SecretBox>) =>
  Layer.merge(box, Layer.provide(accessTokenSignerLayer, box))

/**
 * Every port of the core, with `stores` holding the state and the rest (plan catalog, hashing,
 * tokens, ids, auth settings, payment provider) from `options`: the same composition whichever
 * store is chosen.
 */
export const corePortsOn = <ROut, E, R>(stores: Layer.Layer<ROut, E, R>, options: RosterOptions = {}) =>
  Layer.mergeAll(
    stores,
    planCatalogLayer(options.plans ?? []),
    CryptoServices(options.scrypt),
    authSettingsLayer(options),
    options.paymentProvider ?? noPaymentProviderLayer,
    options.invitationMail ?? noInvitationMailLayer,
    options.accountMail ?? noAccountMailLayer,
    boxAndSigner(
      secretBoxLayer(
        (options.secretsKeys ?? []).map((key) => (typeof key === "string" ? Redacted.make(key) : key))
      )
    ),
    recoveryCodesLayer({ slow: (options.secretsKeys ?? []).length === 0 }),
    deliveryPolicyLayer(options.webhooks),
    httpWebhookSenderLayer({ allowPrivate: false, ...options.webhooks }),
    dnsRecordsLayer(options.sso),
    identityProvidersLayer({ allowHttp: options.webhooks?.allowPrivate === true }),
    options.passkeys === "off"
      ? passkeysOffLayer
      : webAuthnLayer(options.passkeys ?? { rpId: "localhost", origins: ["http://localhost:3000"] })
  )

/** Every port of the core, in process memory: what an embedding service provides to run the use cases. */
export const inMemoryRoster = (options: RosterOptions = {}) => corePortsOn(MemoryStores, options)

/**
 * Everything the HTTP handler (`makeWebHandler`) needs, in process memory with the core's defaults:
 * `inMemoryRoster(options)`, webhook deliveries refused (there is no secret to check them by; in
 * open local mode, without a master key, taken unsigned), and no request log. Give `makeWebHandler`
 * this layer merged with others to replace any of them.
 */
export const servedInMemory = (options: RosterOptions = {}) =>
  Layer.mergeAll(
    inMemoryRoster(options),
    webhookVerifierLayer({ scheme: options.masterKey === undefined ? "unsigned" : "reject" }),
    Layer.succeed(RequestLog)(() => {})
  )
