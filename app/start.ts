import { resolve } from "node:path"
import { Effect, Option, Result } from "effect"
import { defaultHashingBound } from "../adapters/crypto/index.ts"
import {
  builtConsoleDirectory,
  consolePath,
  isLoopbackName,
  makeWebHandler,
  withoutCredentials
} from "../adapters/http/index.ts"
import { jsonLine, type LogLevelName } from "../adapters/log/json-line.ts"
import type { SmtpOptions } from "../adapters/mail/smtp-sender.ts"
import { makePrometheusMetrics } from "../adapters/metrics/prometheus.ts"
import { loadEnvFile } from "./env-file.ts"
import { logWriter, writeLine } from "./log-lines.ts"
import { rosterServices } from "./service-composition.ts"
import { loadSettings, type Settings } from "./settings.ts"

export const logEvent = (level: LogLevelName, msg: string, fields: object = {}) =>
  writeLine(jsonLine(level, msg, fields))

/** Ends the process once the log lines still gathered are written. */
export function exit(code: number): never {
  logWriter.flush()
  return process.exit(code)
}

/** What mail is sent, and why what is off is off. */
const mailLine = (smtp: SmtpOptions | undefined) => {
  if (smtp === undefined) {
    return "mail: off (no ROSTER_SMTP_URL): an invitation's token goes to its creator; password reset and verification mail are off"
  }
  const off = [
    ...(smtp.resetUrl === undefined ? ["password reset mail is off (no ROSTER_RESET_URL)"] : []),
    ...(smtp.verifyUrl === undefined ? ["verification mail is off (no ROSTER_VERIFY_URL)"] : [])
  ]
  const on = ["invitations", ...(smtp.resetUrl === undefined ? [] : ["password resets"])]
  if (smtp.verifyUrl !== undefined) on.push("verifications")
  return [`mail: ${on.join(", ")} through ROSTER_SMTP_URL`, ...off].join("; ")
}

/** Whether access tokens are made, and who they name as their issuer. */
const accessTokensLine = (settings: Settings): readonly [LogLevelName, string] => {
  if (Option.isNone(settings.masterKey))
    return ["info", "access tokens: off in open local mode (no ROSTER_MASTER_KEY)"]
  if (settings.secretsKeys.length === 0)
    return [
      "info",
      "access tokens: off until ROSTER_SECRETS_KEY is set (their signing keys are kept sealed under it)"
    ]
  const lifetime = `${settings.accessTokens.seconds} s, audience ${settings.accessTokens.audience}`
  return Option.match(settings.publicUrl, {
    onSome: (issuer) =>
      ["info", `access tokens: on (POST /api/v1/auth/token, ${lifetime}), issuer ${issuer}`] as const,
    onNone: () =>
      [
        "warn",
        `access tokens: on (POST /api/v1/auth/token, ${lifetime}), but ROSTER_PUBLIC_URL is unset: their issuer is the address each request came to, behind a proxy the internal one. Set ROSTER_PUBLIC_URL to the address products reach Roster at`
      ] as const
  })
}

const announce = (settings: Settings) => {
  const { store } = settings
  if (store.kind === "memory") {
    logEvent("info", "store: in process memory (ROSTER_STORE=memory); data is lost when the process stops")
  } else if (store.kind === "sqlite") {
    logEvent(
      "info",
      `store: SQLite, ${resolve(store.path)} (ROSTER_DATA_DIR); the data stays there across restarts`
    )
  } else {
    logEvent("info", `store: MongoDB, database ${store.mongo.database} (MONGODB_URI)`)
  }
  logEvent("info", `plans: ${settings.plans.length} from ${settings.plansSource}`)
  Option.match(settings.stripe, {
    onNone: () =>
      logEvent(
        "info",
        "payment provider: none (no STRIPE_SECRET_KEY); no checkout is opened, cancellations are immediate"
      ),
    onSome: ({ apiUrl }) =>
      logEvent("info", `payment provider: Stripe at ${apiUrl?.origin ?? "https://api.stripe.com"}`)
  })
  if (settings.corsOrigins.length > 0) {
    logEvent("info", `CORS: pages of ${settings.corsOrigins.join(", ")} may call the API`)
  }
  Option.map(settings.tracing, ({ serviceName }) =>
    logEvent("info", `traces: exported over OTLP as service ${serviceName} (OTEL_EXPORTER_OTLP_ENDPOINT)`)
  )
  Option.map(settings.metrics, ({ token }) =>
    logEvent(
      "info",
      `metrics: served at /metrics, to the master key${Option.isSome(token) ? " and ROSTER_METRICS_TOKEN" : ""}`
    )
  )
  logEvent("info", mailLine(Option.getOrUndefined(settings.mail.smtp)))
  logEvent(
    "info",
    settings.secretsKeys.length > 0
      ? `secrets: TOTP secrets are kept encrypted under ROSTER_SECRETS_KEY (${settings.secretsKeys.length} key${settings.secretsKeys.length === 1 ? "" : "s"}, the first encrypts)`
      : Option.isNone(settings.masterKey)
        ? "secrets: no ROSTER_SECRETS_KEY; TOTP secrets are kept unencrypted (open local mode only)"
        : "secrets: no ROSTER_SECRETS_KEY; enrolling TOTP and connecting single sign-on are refused until one is set"
  )
  const { passkeys } = settings
  if ("off" in passkeys) logEvent("warn", `passkeys: off: ${passkeys.off}`)
  else logEvent("info", `passkeys: bound to ${passkeys.rpId}, used from ${passkeys.origins.join(", ")}`)
  logEvent(...accessTokensLine(settings))
  logEvent(
    "info",
    settings.outboundEvents.allowPrivate
      ? "events: webhooks may be sent over http and to private addresses (ROSTER_WEBHOOK_ALLOW_PRIVATE=on)"
      : "events: webhooks are sent over https to public addresses only"
  )
  if (settings.signupOpen) {
    logEvent(
      "info",
      "signup: open (ROSTER_SIGNUP=open): anyone may open an organisation at /api/v1/auth/signup"
    )
  }
  if (Option.isNone(settings.masterKey)) {
    logEvent(
      "warn",
      "OPEN LOCAL MODE: no ROSTER_MASTER_KEY is set, so every request without credentials has FULL ACCESS. " +
        `Listening on ${settings.host} (loopback) only. Set ROSTER_MASTER_KEY before exposing Roster.`
    )
  }
  if (settings.webhookSecrets.length === 0) {
    logEvent(
      "warn",
      Option.isNone(settings.masterKey)
        ? "No ROSTER_WEBHOOK_SECRET: webhook deliveries are accepted unsigned (open local mode only)"
        : "No ROSTER_WEBHOOK_SECRET: every webhook delivery is refused until one is set"
    )
  }
}

/**
 * Everything a runtime's entrypoint needs, runtime-agnostic: settings read and checked, the web
 * handler built. An invalid configuration ends the process with the reason, before anything listens.
 */
export const prepare = async () => {
  loadEnvFile()
  const loaded = await Effect.runPromise(Effect.result(loadSettings))
  if (Result.isFailure(loaded)) {
    logEvent("error", `Roster cannot start: ${loaded.failure.message}`)
    exit(1)
  }
  const settings = loaded.success
  announce(settings)
  const metrics = Option.map(settings.metrics, ({ token }) => ({ ...makePrometheusMetrics(), token }))
  const console = builtConsoleDirectory()
  const web = await makeWebHandler(rosterServices(settings, Option.getOrUndefined(metrics)?.recorder), {
    ...Option.match(metrics, { onNone: () => ({}), onSome: (on) => ({ metrics: on }) }),
    ...(console === undefined ? {} : { consoleDirectory: console }),
    maxBodyBytes: settings.maxBodyBytes,
    openLocal: Option.isNone(settings.masterKey),
    corsOrigins: settings.corsOrigins,
    ...Option.match(settings.publicOrigin, {
      onNone: () => ({}),
      onSome: (publicOrigin) => ({ publicOrigin })
    }),
    ...Option.match(settings.publicUrl, { onNone: () => ({}), onSome: (publicUrl) => ({ publicUrl }) }),
    // One password check hashing and three waiting per hash the hasher runs at once: a small burst
    // of logins waits for its hashes, a flood is refused at the edge.
    passwordChecksAtOnce: defaultHashingBound().concurrent * 4
  }).catch((error: unknown) => {
    // Building the services touches the store (MongoDB's indexes); it must answer at start.
    logEvent(
      "error",
      "Roster cannot start: its services could not be built (is the store up, MONGODB_URI right, ROSTER_DATA_DIR writable, the configured providers' packages installed?)",
      {
        cause: withoutCredentials(String(error)).slice(0, 4000)
      }
    )
    return exit(1)
  })
  return { settings, ...web, consoleBuilt: console !== undefined }
}

/** Every interface: the machine's own browser reaches it at `localhost`, as it does loopback. */
const everyInterface = new Set(["0.0.0.0", "::", "[::]"])

/**
 * The address a person types to reach a server listening on `host`: `localhost` for loopback and
 * every interface, since passkeys and the console's same-origin check are bound to the host typed
 * (`127.0.0.1` is another origin than `localhost`, with other passkeys).
 */
export const browserOrigin = (host: string, port: number) => {
  const name =
    isLoopbackName(host) || everyInterface.has(host) ? "localhost" : host.includes(":") ? `[${host}]` : host
  return `http://${name}:${port}`
}

/** The lines that say the server listens, and where a browser opens the console. */
export const announceListening = (
  settings: Settings,
  port: number,
  consoleBuilt: boolean,
  runtime: "bun" | "deno" | "node"
) => {
  const origin = browserOrigin(settings.host, port)
  logEvent("info", `Roster listening on ${origin}`, { runtime, address: `${settings.host}:${port}` })
  logEvent(
    "info",
    consoleBuilt
      ? `console: open ${origin}${consolePath} in a browser`
      : "console: not built; run npm run build to serve it at /console/"
  )
}

/** Why a server could not listen, in words, from the error Bun, Deno or Node throws. */
const cannotListen = (settings: Settings, error: unknown) => {
  const { code, name } = (typeof error === "object" && error !== null ? error : {}) as {
    readonly code?: unknown
    readonly name?: unknown
  }
  const address = `${settings.host}:${settings.port}`
  if (code === "EADDRINUSE" || name === "AddrInUse")
    return `${address} is in use by another process: stop it, or choose another port with PORT`
  if (code === "EACCES" || name === "PermissionDenied")
    return `this process may not listen on ${address}: choose a port above 1023 with PORT`
  return undefined
}

/** Starts the runtime's server with `listen`, or ends the process saying why it cannot. */
export const listenOrExit = <Server>(settings: Settings, listen: () => Server): Server => {
  try {
    return listen()
  } catch (error) {
    const reason = cannotListen(settings, error)
    if (reason !== undefined) logEvent("error", `Roster cannot start: ${reason}`)
    else logEvent("error", "Roster cannot start: it cannot listen", { cause: String(error).slice(0, 4000) })
    return exit(1)
  }
}

type Signal = "SIGTERM" | "SIGINT"

/**
 * Graceful shutdown on SIGTERM or SIGINT, whatever the runtime: `stopServer` stops accepting and
 * resolves once the requests in flight are answered; then the services (the store) are closed.
 */
export const stopGracefully = (options: {
  readonly onSignal: (signal: Signal, handler: () => void) => void
  readonly stopServer: () => Promise<void>
  readonly dispose: () => Promise<void>
}) => {
  let stopping = false
  const shutdown = async (signal: Signal) => {
    if (stopping) return
    stopping = true
    logEvent("info", `${signal}: no new connections; finishing requests in flight`)
    await options.stopServer()
    await options.dispose()
    logEvent("info", "Roster stopped")
    exit(0)
  }
  for (const signal of ["SIGTERM", "SIGINT"] as const) options.onSignal(signal, () => void shutdown(signal))
}
