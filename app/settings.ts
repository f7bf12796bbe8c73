import { Config, Duration, Effect, Option, Redacted } from "effect"
import { isLoopbackName } from "../adapters/http/index.ts"
import { isStandardWebhooksSecret } from "../adapters/payments/standard-webhooks-verifier.ts"
import type { StripeProviderOptions } from "../adapters/payments/stripe-options.ts"
import type { Sampling } from "../adapters/tracing/sampled-tracer.ts"
import type { Plan } from "../core/index.ts"
import { parseCorsOrigins } from "./cors-origins.ts"
import { loadMailSettings, type MailSettings } from "./mail-settings.ts"
import { loadOutboundEventSettings, type OutboundEventSettings } from "./outbound-event-settings.ts"
import { loadPermissionsFile, type PermissionEntry } from "./permissions-file.ts"
import { defaultPlansFile, loadPlans } from "./plans-file.ts"
import { loadSecretsKeys } from "./secrets-key-settings.ts"
import { loadSsoSettings, type SsoSettings } from "./sso-settings.ts"
import { readEnvironment, refuse } from "./startup-error.ts"
import { loadStoreSettings, type StoreSettings } from "./store-settings.ts"
import { loadStripeSettings } from "./stripe-settings.ts"
import { loadWebAuthnSettings, type PasskeysOff, type WebAuthnSettings } from "./webauthn-settings.ts"

export interface Settings {
  readonly port: number
  readonly host: string
  /** Absent: open local mode (full access without credentials, loopback only). */
  readonly masterKey: Option.Option<Redacted.Redacted<string>>
  readonly webhookSecrets: ReadonlyArray<Redacted.Redacted<string>>
  /** How deliveries are signed: Stripe's scheme, or Standard Webhooks. */
  readonly webhookScheme: "stripe" | "standard-webhooks"
  readonly plans: ReadonlyArray<Plan>
  readonly plansSource: string
  /** The product permissions `ROSTER_PERMISSIONS_FILE` declares at every start (none without it). */
  readonly permissions: ReadonlyArray<PermissionEntry>
  readonly maxBodyBytes: number
  readonly sessionTtl: Duration.Duration
  readonly logRequests: boolean
  /** Origins whose pages may call the API from a browser; empty: CORS is off. */
  readonly corsOrigins: ReadonlyArray<string>
  /** The origin browsers reach the service at behind a proxy, when set (`ROSTER_PUBLIC_URL`). */
  readonly publicOrigin: Option.Option<string>
  /** `ROSTER_PUBLIC_URL` whole, its path kept, without a trailing slash: access tokens' issuer. */
  readonly publicUrl: Option.Option<string>
  /**
   * Access tokens: how long they live (`ROSTER_ACCESS_TOKEN_SECONDS`, 60–3600, 300 by default) and
   * the audience they name (`ROSTER_TOKEN_AUDIENCE`, `roster` by default).
   */
  readonly accessTokens: { readonly seconds: number; readonly audience: string }
  /** Where the data is kept: SQLite by default, MongoDB, or process memory. */
  readonly store: StoreSettings
  /** Absent: no payment provider is called. */
  readonly stripe: Option.Option<StripeProviderOptions>
  /**
   * Present when an OTLP endpoint is configured (`OTEL_EXPORTER_OTLP_ENDPOINT` or its traces
   * variant, the standard OpenTelemetry variables): requests are traced and their spans exported.
   */
  readonly tracing: Option.Option<{ readonly serviceName: string; readonly sampling: Sampling }>
  /** Absent: nothing is counted and `/metrics` is not served (`ROSTER_METRICS=on` turns them on). */
  readonly metrics: Option.Option<{ readonly token: Option.Option<Redacted.Redacted<string>> }>
  /** Whether anyone may sign up, opening an organisation of their own (`ROSTER_SIGNUP=open`). */
  readonly signupOpen: boolean
  readonly mail: MailSettings
  /** The keys secrets are kept encrypted under (`ROSTER_SECRETS_KEY`): the first seals; none, none is. */
  readonly secretsKeys: ReadonlyArray<Redacted.Redacted<string>>
  readonly outboundEvents: OutboundEventSettings
  readonly sso: SsoSettings
  /** Passkeys' relying party (`ROSTER_WEBAUTHN_RP_ID`, `ROSTER_WEBAUTHN_ORIGINS`), or why they are off. */
  readonly passkeys: WebAuthnSettings | PasskeysOff
}

const minimumMasterKeyLength = 32

const environment = Config.all({
  port: Config.Port("PORT").pipe(Config.withDefault(3000)),
  host: Config.String("HOST").pipe(Config.option),
  masterKey: Config.Redacted("ROSTER_MASTER_KEY").pipe(Config.option),
  webhookSecret: Config.Redacted("ROSTER_WEBHOOK_SECRET").pipe(Config.option),
  webhookScheme: Config.Literals(["stripe", "standard-webhooks"], "ROSTER_WEBHOOK_SCHEME").pipe(
    Config.withDefault("stripe" as const)
  ),
  plansFile: Config.String("ROSTER_PLANS_FILE").pipe(Config.option),
  permissionsFile: Config.String("ROSTER_PERMISSIONS_FILE").pipe(Config.option),
  maxBodyBytes: Config.Int("ROSTER_MAX_BODY_BYTES").pipe(Config.withDefault(1024 * 1024)),
  sessionTtl: Config.Duration("ROSTER_SESSION_TTL").pipe(Config.withDefault(Duration.hours(12))),
  logRequests: Config.Boolean("ROSTER_LOG_REQUESTS").pipe(Config.withDefault(true)),
  corsOrigins: Config.String("ROSTER_CORS_ORIGINS").pipe(Config.option),
  publicUrl: Config.URL("ROSTER_PUBLIC_URL").pipe(Config.option),
  accessTokenSeconds: Config.String("ROSTER_ACCESS_TOKEN_SECONDS").pipe(Config.withDefault("300")),
  tokenAudience: Config.String("ROSTER_TOKEN_AUDIENCE").pipe(Config.withDefault("roster")),
  metrics: Config.Literals(["on", "off"], "ROSTER_METRICS").pipe(Config.withDefault("off" as const)),
  signup: Config.Literals(["open", "closed"], "ROSTER_SIGNUP").pipe(Config.withDefault("closed" as const)),
  metricsToken: Config.Redacted("ROSTER_METRICS_TOKEN").pipe(Config.option),
  otlpEndpoint: Config.URL("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT").pipe(
    Config.orElse(() => Config.URL("OTEL_EXPORTER_OTLP_ENDPOINT")),
    Config.option
  ),
  otelDisabled: Config.Boolean("OTEL_SDK_DISABLED").pipe(Config.withDefault(false)),
  serviceName: Config.String("OTEL_SERVICE_NAME").pipe(Config.withDefault("roster")),
  sampler: Config.Literals(
    [
      "always_on",
      "always_off",
      "traceidratio",
      "parentbased_always_on",
      "parentbased_always_off",
      "parentbased_traceidratio"
    ],
    "OTEL_TRACES_SAMPLER"
  ).pipe(Config.withDefault("parentbased_always_on" as const)),
  samplerArg: Config.Number("OTEL_TRACES_SAMPLER_ARG").pipe(Config.option)
})

/** The OpenTelemetry sampler named, as Roster applies it (see `sampledTracer`). */
const samplingOf = (sampler: string, argument: Option.Option<number>): Sampling => ({
  parentBased: sampler.startsWith("parentbased_"),
  ratio: sampler.endsWith("always_on")
    ? 1
    : sampler.endsWith("always_off")
      ? 0
      : Option.getOrElse(argument, () => 1)
})

/** Reads the environment once at start; anything invalid stops the start with a message naming it. */
export const loadSettings = Effect.gen(function* () {
  const env = yield* readEnvironment(environment)
  if (Option.isSome(env.masterKey) && Redacted.value(env.masterKey.value).length < minimumMasterKeyLength) {
    return yield* refuse(`ROSTER_MASTER_KEY must be at least ${minimumMasterKeyLength} characters long`)
  }
  const openLocal = Option.isNone(env.masterKey)
  const host = Option.getOrElse(env.host, () => (openLocal ? "127.0.0.1" : "0.0.0.0"))
  if (openLocal && !isLoopbackName(host)) {
    return yield* refuse(
      `HOST=${host} is not a loopback address. Without ROSTER_MASTER_KEY Roster runs in open local mode, ` +
        "where anyone who can connect has full access, so it listens on loopback only. " +
        "Set ROSTER_MASTER_KEY to serve other hosts."
    )
  }
  if (env.maxBodyBytes < 1) return yield* refuse("ROSTER_MAX_BODY_BYTES must be a positive number of bytes")
  if (
    !Duration.isFinite(env.sessionTtl) ||
    Duration.isLessThan(env.sessionTtl, Duration.seconds(1)) ||
    Duration.isGreaterThan(env.sessionTtl, Duration.days(366))
  ) {
    return yield* refuse("ROSTER_SESSION_TTL must be between 1 second and 366 days, e.g. `12 hours`")
  }
  const webhookSecrets = Option.match(env.webhookSecret, {
    onNone: () => [],
    onSome: (secrets) =>
      Redacted.value(secrets)
        .split(",")
        .map((secret) => secret.trim())
        .filter((secret) => secret !== "")
        .map((secret) => Redacted.make(secret))
  })
  if (Option.isSome(env.webhookSecret) && webhookSecrets.length === 0) {
    return yield* refuse("ROSTER_WEBHOOK_SECRET is set but names no secret")
  }
  if (env.webhookScheme === "standard-webhooks" && !webhookSecrets.every(isStandardWebhooksSecret)) {
    return yield* refuse("ROSTER_WEBHOOK_SECRET: a Standard Webhooks secret is `whsec_` followed by base64")
  }
  const cors = Option.match(env.corsOrigins, {
    onNone: () => ({ origins: [] }),
    onSome: (origins) => parseCorsOrigins(origins, openLocal)
  })
  if ("problem" in cors) return yield* refuse(cors.problem)
  if (
    Option.isSome(env.metricsToken) &&
    Redacted.value(env.metricsToken.value).length < minimumMasterKeyLength
  ) {
    return yield* refuse(`ROSTER_METRICS_TOKEN must be at least ${minimumMasterKeyLength} characters long`)
  }
  if (Option.isSome(env.samplerArg) && !(env.samplerArg.value >= 0 && env.samplerArg.value <= 1)) {
    return yield* refuse("OTEL_TRACES_SAMPLER_ARG must be a ratio from 0 to 1, e.g. 0.01")
  }
  const accessTokenSeconds = Number(env.accessTokenSeconds.trim())
  if (!/^\d+$/u.test(env.accessTokenSeconds.trim()) || accessTokenSeconds < 60 || accessTokenSeconds > 3600) {
    return yield* refuse(
      "ROSTER_ACCESS_TOKEN_SECONDS must be a whole number of seconds from 60 to 3600 (300 by default)"
    )
  }
  const tokenAudience = env.tokenAudience.trim()
  if (tokenAudience === "" || tokenAudience.length > 256) {
    return yield* refuse("ROSTER_TOKEN_AUDIENCE must be a name of 1 to 256 characters (roster by default)")
  }
  const plansSource = Option.getOrElse(env.plansFile, () => defaultPlansFile)
  const plans = yield* loadPlans(plansSource)
  const permissions = Option.isSome(env.permissionsFile)
    ? yield* loadPermissionsFile(env.permissionsFile.value)
    : []
  return {
    port: env.port,
    host,
    masterKey: env.masterKey,
    webhookSecrets,
    webhookScheme: env.webhookScheme,
    plans,
    plansSource,
    permissions,
    maxBodyBytes: env.maxBodyBytes,
    sessionTtl: env.sessionTtl,
    logRequests: env.logRequests,
    corsOrigins: cors.origins,
    publicOrigin: Option.map(env.publicUrl, (url) => url.origin),
    publicUrl: Option.map(env.publicUrl, (url) => `${url.origin}${url.pathname}`.replace(/\/+$/u, "")),
    accessTokens: { seconds: accessTokenSeconds, audience: tokenAudience },
    store: yield* loadStoreSettings,
    stripe: yield* loadStripeSettings(plans),
    metrics: env.metrics === "on" ? Option.some({ token: env.metricsToken }) : Option.none(),
    signupOpen: env.signup === "open",
    mail: yield* loadMailSettings,
    secretsKeys: yield* loadSecretsKeys,
    outboundEvents: yield* loadOutboundEventSettings,
    sso: yield* loadSsoSettings,
    passkeys: yield* loadWebAuthnSettings(
      Option.map(env.publicUrl, (url) => url.origin),
      env.port
    ),
    tracing:
      Option.isSome(env.otlpEndpoint) && !env.otelDisabled
        ? Option.some({ serviceName: env.serviceName, sampling: samplingOf(env.sampler, env.samplerArg) })
        : Option.none()
  } satisfies Settings
})
