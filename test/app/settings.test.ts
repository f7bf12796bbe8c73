import { writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { ConfigProvider, Duration, Effect, Option, Redacted } from "effect"
import { describe, expect, it } from "vitest"
import { loadSettings } from "../../app/settings.ts"

const load = (env: Record<string, string>) =>
  Effect.runPromise(
    Effect.result(loadSettings).pipe(
      Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnv({ env }))
    )
  )

const refusal = async (env: Record<string, string>) => {
  const result = await load(env)
  if (result._tag === "Success") throw new Error("expected the start to be refused")
  return result.failure.message
}

const key = "k".repeat(32)

const standardSecret = `whsec_${btoa("a standard webhooks secret")}`

const plansFile = (content: string) => {
  const path = join(tmpdir(), `roster-plans-${crypto.randomUUID()}.json`)
  writeFileSync(path, content)
  return path
}

describe("settings from the environment", () => {
  it("defaults to open local mode on loopback, port 3000, 1 MiB bodies, 12 h sessions and the shipped plans", async () => {
    const result = await load({})
    if (result._tag === "Failure") throw new Error(result.failure.message)
    const settings = result.success
    expect(settings).toMatchObject({ port: 3000, host: "127.0.0.1", maxBodyBytes: 1024 * 1024 })
    expect(Option.isNone(settings.masterKey)).toBe(true)
    expect(Duration.toHours(settings.sessionTtl)).toBe(12)
    expect(settings.plans.map((plan) => plan.planId)).toEqual(["free", "team", "business"])
  })

  it("listens on every interface with a master key, and splits webhook secrets for rotation", async () => {
    const result = await load({
      ROSTER_MASTER_KEY: key,
      ROSTER_WEBHOOK_SECRET: "whsec_a, whsec_b,",
      PORT: "8080"
    })
    if (result._tag === "Failure") throw new Error(result.failure.message)
    expect(result.success).toMatchObject({ host: "0.0.0.0", port: 8080 })
    expect(result.success.webhookSecrets.map(Redacted.value)).toEqual(["whsec_a", "whsec_b"])
  })

  it("reads access tokens' lifetime (300 s, 60 to 3600) and audience (roster), and the issuer from ROSTER_PUBLIC_URL", async () => {
    const defaults = await load({})
    if (defaults._tag === "Failure") throw new Error(defaults.failure.message)
    expect(defaults.success.accessTokens).toEqual({ seconds: 300, audience: "roster" })
    expect(Option.isNone(defaults.success.publicUrl)).toBe(true)
    const set = await load({
      ROSTER_ACCESS_TOKEN_SECONDS: "60",
      ROSTER_TOKEN_AUDIENCE: "billing-api",
      ROSTER_PUBLIC_URL: "https://app.example.com/roster/"
    })
    if (set._tag === "Failure") throw new Error(set.failure.message)
    expect(set.success.accessTokens).toEqual({ seconds: 60, audience: "billing-api" })
    expect(Option.getOrUndefined(set.success.publicUrl)).toBe("https://app.example.com/roster")
    expect(Option.getOrUndefined(set.success.publicOrigin)).toBe("https://app.example.com")
    for (const seconds of ["59", "3601", "5m", "1e3", "-300"]) {
      expect(await refusal({ ROSTER_ACCESS_TOKEN_SECONDS: seconds }), seconds).toMatch(
        /^ROSTER_ACCESS_TOKEN_SECONDS/u
      )
    }
    expect(await refusal({ ROSTER_TOKEN_AUDIENCE: " " })).toMatch(/^ROSTER_TOKEN_AUDIENCE/u)
  })

  it("refuses a non-loopback HOST in open local mode", async () => {
    expect(await refusal({ HOST: "0.0.0.0" })).toMatch(/HOST=0\.0\.0\.0 is not a loopback address/)
    const result = await load({ HOST: "::1" })
    expect(result._tag).toBe("Success")
  })

  it("refuses a short master key, a bad port, a zero body limit and a zero session lifetime", async () => {
    expect(await refusal({ ROSTER_MASTER_KEY: "short" })).toMatch(/ROSTER_MASTER_KEY must be at least 32/)
    expect(await refusal({ PORT: "99999" })).toBe("PORT must be a number from 1 to 65535")
    expect(await refusal({ PORT: "abc" })).toBe("PORT must be a number")
    expect(await refusal({ ROSTER_MAX_BODY_BYTES: "0" })).toMatch(/ROSTER_MAX_BODY_BYTES/)
    for (const ttl of ["0 seconds", "-5 hours", "Infinity", "400 days"]) {
      expect(await refusal({ ROSTER_SESSION_TTL: ttl }), ttl).toMatch(/ROSTER_SESSION_TTL/)
    }
  })

  it("names the variable and what it must be, in words, never the schema's report nor the value", async () => {
    expect(await refusal({ ROSTER_LOG_REQUESTS: "maybe" })).toBe("ROSTER_LOG_REQUESTS must be true or false")
    expect(await refusal({ ROSTER_WEBHOOK_SCHEME: "hmac" })).toBe(
      'ROSTER_WEBHOOK_SCHEME must be one of "stripe", "standard-webhooks"'
    )
    expect(await refusal({ ROSTER_SESSION_TTL: "soon" })).toBe(
      "ROSTER_SESSION_TTL must be a duration such as `12 hours` or `30 minutes`"
    )
    expect(await refusal({ ROSTER_MAX_BODY_BYTES: "lots" })).not.toMatch(/SchemaError|lots/)
  })

  it("reads ROSTER_WEBHOOK_SCHEME: stripe by default, standard-webhooks on request, nothing else", async () => {
    const schemeOf = async (env: Record<string, string>) => {
      const result = await load(env)
      if (result._tag === "Failure") throw new Error(result.failure.message)
      return result.success.webhookScheme
    }
    expect(await schemeOf({})).toBe("stripe")
    expect(await schemeOf({ ROSTER_WEBHOOK_SECRET: "whsec_stripe_style_secret" })).toBe("stripe")
    expect(await schemeOf({ ROSTER_WEBHOOK_SCHEME: "stripe" })).toBe("stripe")
    const standard = { ROSTER_WEBHOOK_SCHEME: "standard-webhooks" }
    expect(await schemeOf(standard)).toBe("standard-webhooks")
    expect(await schemeOf({ ...standard, ROSTER_WEBHOOK_SECRET: standardSecret })).toBe("standard-webhooks")
    for (const scheme of ["github", "Stripe", "standard_webhooks"]) {
      expect(await refusal({ ROSTER_WEBHOOK_SCHEME: scheme }), scheme).toMatch(/ROSTER_WEBHOOK_SCHEME/)
    }
  })

  it("reads ROSTER_METRICS (off by default, on on request) and ROSTER_METRICS_TOKEN, refusing anything else", async () => {
    const metricsOf = async (env: Record<string, string>) => {
      const result = await load(env)
      if (result._tag === "Failure") throw new Error(result.failure.message)
      return result.success.metrics
    }
    expect(Option.isNone(await metricsOf({}))).toBe(true)
    expect(Option.isNone(await metricsOf({ ROSTER_METRICS: "off", ROSTER_METRICS_TOKEN: key }))).toBe(true)
    const on = await metricsOf({ ROSTER_METRICS: "on", ROSTER_METRICS_TOKEN: key })
    expect(Option.map(on, ({ token }) => Option.map(token, Redacted.value))).toEqual(
      Option.some(Option.some(key))
    )
    for (const value of ["yes", "true", "ON"]) {
      expect(await refusal({ ROSTER_METRICS: value }), value).toMatch(/ROSTER_METRICS/)
    }
    expect(await refusal({ ROSTER_METRICS: "on", ROSTER_METRICS_TOKEN: "short" })).toMatch(
      /ROSTER_METRICS_TOKEN/
    )
  })

  it("traces when an OTLP endpoint is configured, as service OTEL_SERVICE_NAME (roster by default), unless OTEL_SDK_DISABLED", async () => {
    const tracingOf = async (env: Record<string, string>) => {
      const result = await load(env)
      if (result._tag === "Failure") throw new Error(result.failure.message)
      return result.success.tracing
    }
    const endpoint = "http://127.0.0.1:4318"
    expect(await tracingOf({})).toEqual(Option.none())
    const always = { parentBased: true, ratio: 1 }
    expect(await tracingOf({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint })).toEqual(
      Option.some({ serviceName: "roster", sampling: always })
    )
    expect(
      await tracingOf({
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${endpoint}/v1/traces`,
        OTEL_SERVICE_NAME: "team-api"
      })
    ).toEqual(Option.some({ serviceName: "team-api", sampling: always }))
    const sampled = (sampler: string, ratio?: string) =>
      tracingOf({
        OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
        OTEL_TRACES_SAMPLER: sampler,
        ...(ratio === undefined ? {} : { OTEL_TRACES_SAMPLER_ARG: ratio })
      }).then(Option.map(({ sampling }) => sampling))
    expect(await sampled("traceidratio", "0.01")).toEqual(Option.some({ parentBased: false, ratio: 0.01 }))
    expect(await sampled("parentbased_always_off")).toEqual(Option.some({ parentBased: true, ratio: 0 }))
    expect(await refusal({ OTEL_TRACES_SAMPLER: "sometimes" })).toMatch(/OTEL_TRACES_SAMPLER/)
    expect(await refusal({ OTEL_TRACES_SAMPLER_ARG: "2" })).toMatch(/OTEL_TRACES_SAMPLER_ARG/)
    expect(await tracingOf({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_SDK_DISABLED: "true" })).toEqual(
      Option.none()
    )
    expect(await refusal({ OTEL_EXPORTER_OTLP_ENDPOINT: "not a url" })).toMatch(/OTEL_EXPORTER_OTLP_ENDPOINT/)
  })

  it("refuses a Standard Webhooks secret that is not whsec_ and base64, naming ROSTER_WEBHOOK_SECRET", async () => {
    const secrets = [
      "whsec_stripe_style_secret", // a Stripe secret kept after switching schemes: `_` is not base64
      "whsec_",
      "whsec_not base64!",
      `${standardSecret},whsec_%%%` // one bad secret among rotated ones
    ]
    for (const secret of secrets) {
      const message = await refusal({
        ROSTER_WEBHOOK_SCHEME: "standard-webhooks",
        ROSTER_WEBHOOK_SECRET: secret
      })
      expect(message, secret).toMatch(/ROSTER_WEBHOOK_SECRET/)
      expect(message, secret).not.toContain("stripe_style") // the secret itself is never echoed
    }
  })

  it("reads invitation mail: none without ROSTER_SMTP_URL; with it, the sender and the link are required", async () => {
    const none = await load({})
    if (none._tag === "Failure") throw new Error(none.failure.message)
    expect(Option.isNone(none.success.mail.smtp)).toBe(true)
    expect(Duration.toDays(none.success.mail.invitationTtl)).toBe(7)
    const mail = {
      ROSTER_SMTP_URL: "smtps://user:secret@mail.example.com:465",
      ROSTER_MAIL_FROM: "Roster <roster@example.com>",
      ROSTER_INVITE_URL: "https://app.example.com/accept?token={token}",
      ROSTER_INVITATION_TTL: "2 days"
    }
    const configured = await load(mail)
    if (configured._tag === "Failure") throw new Error(configured.failure.message)
    const smtp = Option.getOrThrow(configured.success.mail.smtp)
    expect(Redacted.value(smtp.url)).toBe(mail.ROSTER_SMTP_URL)
    expect(String(smtp.url)).not.toContain("secret")
    expect(smtp).toMatchObject({ from: mail.ROSTER_MAIL_FROM, inviteUrl: mail.ROSTER_INVITE_URL })
    expect(Duration.toDays(configured.success.mail.invitationTtl)).toBe(2)
    expect(await refusal({ ...mail, ROSTER_SMTP_URL: "http://mail.example.com" })).toMatch(/ROSTER_SMTP_URL/)
    expect(await refusal({ ...mail, ROSTER_MAIL_FROM: "" })).toMatch(/ROSTER_MAIL_FROM/)
    expect(await refusal({ ...mail, ROSTER_INVITE_URL: "https://app.example.com/accept" })).toMatch(
      /ROSTER_INVITE_URL.*\{token\}/
    )
    expect(await refusal({ ROSTER_INVITATION_TTL: "0 seconds" })).toMatch(/ROSTER_INVITATION_TTL/)
    expect(await refusal({ ROSTER_RESET_TTL: "1 second" })).toMatch(/ROSTER_RESET_TTL/)
    expect(await refusal({ ...mail, ROSTER_VERIFY_URL: "ftp://app.example.com/{token}" })).toMatch(
      /ROSTER_VERIFY_URL.*\{token\}/
    )
  })

  it("takes ROSTER_SECRETS_KEY as comma-separated keys of 32 characters at least, the first first", async () => {
    expect(await refusal({ ROSTER_SECRETS_KEY: "too short" })).toMatch(/ROSTER_SECRETS_KEY/)
    expect(await refusal({ ROSTER_SECRETS_KEY: `${"k".repeat(32)},short` })).toMatch(/ROSTER_SECRETS_KEY/)
  })

  it("sends webhooks over https to public addresses on Svix's schedule unless the environment says otherwise", async () => {
    const eventsOf = async (env: Record<string, string>) => {
      const result = await load(env)
      if (result._tag === "Failure") throw new Error(result.failure.message)
      return result.success.outboundEvents
    }
    expect(await eventsOf({})).toEqual({ allowPrivate: false })
    const set = await eventsOf({
      ROSTER_WEBHOOK_ALLOW_PRIVATE: "on",
      ROSTER_WEBHOOK_RETRY_SCHEDULE: "1, 2.5,60",
      ROSTER_WEBHOOK_LEASE: "3"
    })
    expect(set.allowPrivate).toBe(true)
    expect(set.retrySchedule?.map(Duration.toMillis)).toEqual([1000, 2500, 60_000])
    expect(set.lease === undefined ? undefined : Duration.toSeconds(set.lease)).toBe(3)
    expect(await refusal({ ROSTER_WEBHOOK_RETRY_SCHEDULE: "5,soon" })).toMatch(
      /ROSTER_WEBHOOK_RETRY_SCHEDULE/
    )
    expect(await eventsOf({ ROSTER_WEBHOOK_RETRY_SCHEDULE: "" }), "empty counts as unset").toEqual({
      allowPrivate: false
    })
    expect(await refusal({ ROSTER_WEBHOOK_LEASE: "0" })).toMatch(/ROSTER_WEBHOOK_LEASE/)
    expect(await refusal({ ROSTER_WEBHOOK_ALLOW_PRIVATE: "yes" })).toMatch(/ROSTER_WEBHOOK_ALLOW_PRIVATE/)
  })

  it("keeps the data in SQLite in ./data unless ROSTER_STORE or MONGODB_URI says otherwise; empty counts as unset", async () => {
    const storeOf = async (env: Record<string, string>) => {
      const result = await load(env)
      if (result._tag === "Failure") throw new Error(result.failure.message)
      return result.success.store
    }
    expect(await storeOf({})).toEqual({ kind: "sqlite", path: join("data", "roster.db") })
    expect(await storeOf({ ROSTER_STORE: "", MONGODB_URI: "" })).toMatchObject({ kind: "sqlite" })
    expect(await storeOf({ ROSTER_DATA_DIR: "/var/lib/roster" })).toEqual({
      kind: "sqlite",
      path: "/var/lib/roster/roster.db"
    })
    expect(await storeOf({ ROSTER_STORE: "memory", MONGODB_URI: "mongodb://db" })).toEqual({ kind: "memory" })
    const mongo = await storeOf({ MONGODB_URI: "mongodb://user:secret@db", MONGODB_DB: "team" })
    expect(mongo).toMatchObject({ kind: "mongodb", mongo: { database: "team" } })
    expect(String(mongo.kind === "mongodb" ? mongo.mongo.uri : "")).not.toContain("secret")
    expect(await refusal({ ROSTER_STORE: "postgres" })).toMatch(
      /ROSTER_STORE must be sqlite, mongodb or memory/
    )
    expect(await refusal({ ROSTER_STORE: "mongodb" })).toMatch(/needs MONGODB_URI/)
  })

  it("names what is wrong with a plans file", async () => {
    expect(await refusal({ ROSTER_PLANS_FILE: "/no/such/plans.json" })).toMatch(/Cannot read the plans file/)
    const fractional = plansFile(
      '[{"planId":"a","planName":"A","price":{"amountMinor":1.5,"currency":"EUR"}}]'
    )
    expect(await refusal({ ROSTER_PLANS_FILE: fractional })).toMatch(/amountMinor/)
    const duplicate = plansFile(
      '[{"planId":"a","planName":"A","price":{"amountMinor":1,"currency":"EUR"}},' +
        '{"planId":"a","planName":"B","price":{"amountMinor":2,"currency":"EUR"}}]'
    )
    expect(await refusal({ ROSTER_PLANS_FILE: duplicate })).toMatch(/planIds must be unique/)
    expect(await refusal({ ROSTER_PLANS_FILE: plansFile("not json") })).toMatch(/is not valid/)
  })

  it("reads ROSTER_CORS_ORIGINS: off by default, a list of origins as browsers send them", async () => {
    const originsOf = async (env: Record<string, string>) => {
      const result = await load(env)
      if (result._tag === "Failure") throw new Error(result.failure.message)
      return result.success.corsOrigins
    }
    expect(await originsOf({})).toEqual([])
    expect(
      await originsOf({
        ROSTER_MASTER_KEY: key,
        ROSTER_CORS_ORIGINS: "https://app.example.com, http://localhost:5173,https://app.example.com"
      })
    ).toEqual(["https://app.example.com", "http://localhost:5173"])
    expect(await originsOf({ ROSTER_CORS_ORIGINS: "http://localhost:5173,http://127.0.0.1:8080" })).toEqual([
      "http://localhost:5173",
      "http://127.0.0.1:8080"
    ])
  })

  it("refuses a CORS list with *, a path, an odd spelling or scheme, and remote origins in open local mode", async () => {
    const secure = { ROSTER_MASTER_KEY: key }
    const refused = {
      "*": /`\*` is not accepted/,
      "https://app.example.com, *": /`\*` is not accepted/,
      null: /`null` is not accepted/,
      ",": /names no origin/,
      "https://app.example.com/": /as a browser sends it: https:\/\/app\.example\.com$/,
      "https://App.Example.com": /as a browser sends it: https:\/\/app\.example\.com$/,
      "https://app.example.com:443": /as a browser sends it/,
      "app.example.com": /is not an http or https origin/,
      "ftp://app.example.com": /is not an http or https origin/
    }
    for (const [origins, message] of Object.entries(refused)) {
      expect(await refusal({ ...secure, ROSTER_CORS_ORIGINS: origins }), origins).toMatch(message)
    }
    expect(await refusal({ ROSTER_CORS_ORIGINS: "https://app.example.com" })).toMatch(
      /https:\/\/app\.example\.com is not a loopback origin.*open local mode/
    )
  })

  describe("the payment provider", () => {
    const priced = () =>
      plansFile(
        JSON.stringify([
          { planId: "free", planName: "Free", price: { amountMinor: 0, currency: "EUR" } },
          {
            planId: "seats",
            planName: "Seats",
            price: { amountMinor: 500, currency: "EUR" },
            stripePriceId: "price_seats",
            perSeat: true,
            interval: "year"
          }
        ])
      )
    const withKey = (env: Record<string, string> = {}) => ({
      STRIPE_SECRET_KEY: "sk_test_secret_never_echoed",
      ROSTER_PLANS_FILE: priced(),
      ROSTER_CHECKOUT_SUCCESS_URL: "https://app.example/done",
      ROSTER_CHECKOUT_CANCEL_URL: "https://app.example/billing",
      ...env
    })

    it("is none without STRIPE_SECRET_KEY, and Stripe with the plans' prices and return addresses with one", async () => {
      const none = await load({})
      if (none._tag === "Failure") throw new Error(none.failure.message)
      expect(Option.isNone(none.success.stripe)).toBe(true)
      const result = await load(withKey({ STRIPE_API_URL: "http://127.0.0.1:12111" }))
      if (result._tag === "Failure") throw new Error(result.failure.message)
      const stripe = Option.getOrThrow(result.success.stripe)
      expect(Redacted.value(stripe.secretKey)).toBe("sk_test_secret_never_echoed")
      expect(stripe).toMatchObject({
        successUrl: "https://app.example/done",
        cancelUrl: "https://app.example/billing"
      })
      expect(stripe.apiUrl?.href).toBe("http://127.0.0.1:12111/")
      expect(Duration.toSeconds(stripe.timeout)).toBe(10)
      expect(result.success.plans.find((plan) => plan.planId === "seats")).toMatchObject({
        providerPriceId: "price_seats",
        perSeat: true,
        interval: "year"
      })
    })

    it("refuses a key while a paid plan has no Stripe price, naming the plans", async () => {
      const { ROSTER_PLANS_FILE: _priced, ...shippedPlans } = withKey()
      const message = await refusal(shippedPlans)
      expect(message).toMatch(/team, business have no stripePriceId/)
      expect(message).not.toContain("sk_test_secret_never_echoed")
    })

    it("refuses a key without both return addresses, a bad API address and a bad timeout", async () => {
      expect(await refusal(withKey({ ROSTER_CHECKOUT_SUCCESS_URL: "" }))).toMatch(
        /ROSTER_CHECKOUT_SUCCESS_URL/
      )
      expect(await refusal(withKey({ ROSTER_CHECKOUT_CANCEL_URL: "ftp://app.example" }))).toMatch(
        /ROSTER_CHECKOUT_CANCEL_URL/
      )
      expect(await refusal(withKey({ STRIPE_API_URL: "not a url" }))).toMatch(/STRIPE_API_URL/)
      for (const timeout of ["0 seconds", "5 minutes"]) {
        expect(await refusal(withKey({ ROSTER_PROVIDER_TIMEOUT: timeout })), timeout).toMatch(
          /ROSTER_PROVIDER_TIMEOUT/
        )
      }
    })
  })

  it("binds passkeys to localhost by default, and to ROSTER_PUBLIC_URL's host when it is a domain name", async () => {
    const local = await load({})
    if (local._tag === "Failure") throw new Error(local.failure.message)
    expect(local.success.passkeys).toEqual({ rpId: "localhost", origins: ["http://localhost:3000"] })
    const public_ = await load({ ROSTER_MASTER_KEY: key, ROSTER_PUBLIC_URL: "https://roster.example.com/x" })
    if (public_._tag === "Failure") throw new Error(public_.failure.message)
    expect(public_.success.passkeys).toEqual({
      rpId: "roster.example.com",
      origins: ["https://roster.example.com"]
    })
  })

  it("starts with passkeys off, saying what to set, where ROSTER_PUBLIC_URL's host is an IP address and no RP ID is set", async () => {
    for (const url of ["http://127.0.0.1:3000", "http://10.0.0.5", "http://[::1]:8080"]) {
      const result = await load({ ROSTER_MASTER_KEY: key, ROSTER_PUBLIC_URL: url })
      if (result._tag === "Failure") throw new Error(`${url}: ${result.failure.message}`)
      const passkeys = result.success.passkeys
      if (!("off" in passkeys)) throw new Error(`${url}: passkeys are on`)
      expect(passkeys.off).toMatch(/is an IP address.*set ROSTER_WEBAUTHN_RP_ID/u)
    }
    const named = await load({
      ROSTER_MASTER_KEY: key,
      ROSTER_PUBLIC_URL: "http://10.0.0.5",
      ROSTER_WEBAUTHN_RP_ID: "intranet.example",
      ROSTER_WEBAUTHN_ORIGINS: "https://roster.intranet.example"
    })
    if (named._tag === "Failure") throw new Error(named.failure.message)
    expect(named.success.passkeys).toEqual({
      rpId: "intranet.example",
      origins: ["https://roster.intranet.example"]
    })
  })

  it("refuses to start only for an RP ID or origins the operator set that cannot work", async () => {
    expect(await refusal({ ROSTER_WEBAUTHN_RP_ID: "10.0.0.5" })).toMatch(
      /ROSTER_WEBAUTHN_RP_ID must be a domain name/u
    )
    expect(await refusal({ ROSTER_WEBAUTHN_RP_ID: "https://example.com" })).toMatch(
      /ROSTER_WEBAUTHN_RP_ID must be a domain name/u
    )
    expect(await refusal({ ROSTER_WEBAUTHN_ORIGINS: "not an origin" })).toMatch(
      /ROSTER_WEBAUTHN_ORIGINS must be/u
    )
    expect(
      await refusal({ ROSTER_WEBAUTHN_RP_ID: "example.com", ROSTER_WEBAUTHN_ORIGINS: "https://evil.test" })
    ).toMatch(/ROSTER_WEBAUTHN_ORIGINS must be origins on example\.com/u)
  })
})
