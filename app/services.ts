import { chmodSync, existsSync, mkdirSync } from "node:fs"
import { dirname } from "node:path"
import { Effect, Layer, Logger, Option, Redacted, Schedule } from "effect"
import { jsonLines, RequestLog, RequestsStarted } from "../adapters/http/index.ts"
import { loadedWhenBuilt } from "../adapters/loaded-when-built.ts"
import { jsonLineLogger } from "../adapters/log/json-line.ts"
import { noAccountMailLayer } from "../adapters/mail/no-account-mail.ts"
import { noInvitationMailLayer } from "../adapters/mail/no-invitation-mail.ts"
import { MemoryStores } from "../adapters/memory/index.ts"
import { Metrics, type MetricsRecorder } from "../adapters/metrics/recorder.ts"
import { noPaymentProviderLayer } from "../adapters/payments/no-payment-provider.ts"
import { stripeProviderLayer } from "../adapters/payments/stripe-provider-layer.ts"
import { webhookVerifierLayer } from "../adapters/payments/webhook-verifier-layer.ts"
import { type MapShared, openBunSqlite, openNodeSqlite, sqliteStores } from "../adapters/sqlite/index.ts"
import { inEveryOrganization, keepSeatsInStep, setUpOrganizations } from "../core/index.ts"
import { eventSender } from "./event-sender.ts"
import { makeLogWriter } from "./log-writer.ts"
import { rosterOn } from "./roster-layer.ts"
import type { Settings } from "./settings.ts"
import { tracedWhenTracing, tracing } from "./tracing.ts"

export const logWriter = makeLogWriter((chunk) => process.stdout.write(chunk))

export const writeLine = logWriter.line

// Without a secret nothing can be verified: deliveries are taken as they come in open local mode only.
const webhookVerifier = (settings: Settings) =>
  webhookVerifierLayer(
    settings.webhookSecrets.length > 0
      ? { scheme: settings.webhookScheme, secrets: settings.webhookSecrets }
      : { scheme: Option.isNone(settings.masterKey) ? "unsigned" : "reject" }
  )

// What the stores log while they start (a missing TTL index) comes out as the same JSON lines.
const jsonLogger = Logger.layer([jsonLineLogger(writeLine)])

/**
 * The data folder, made owner-only (0700) whatever the umask: it holds the database. A folder that
 * exists is the operator's and keeps its mode; the files in it are private all the same.
 */
const makeDataFolder = (folder: string) => {
  if (existsSync(folder)) return
  mkdirSync(folder, { recursive: true, mode: 0o700 })
  chmodSync(folder, 0o700)
}

/** The runtime's own SQLite driver: Bun's under Bun, `node:sqlite` under Deno and Node. */
const openSqlite = "Bun" in globalThis ? openBunSqlite : openNodeSqlite

/**
 * Bun maps files into memory; the other runtimes ask SQLite what changed (see `commitWatch`). Read
 * from the global, which the published build's types (Node's) do not declare.
 */
const bun = (
  globalThis as { readonly Bun?: { readonly mmap: (path: string, options: object) => Uint8Array } }
).Bun
const mapShared: MapShared | undefined =
  bun === undefined ? undefined : (path, bytes) => bun.mmap(path, { shared: true, size: bytes })

const stores = ({ store }: Settings) => {
  switch (store.kind) {
    case "memory":
      return MemoryStores
    case "sqlite":
      return Layer.unwrap(
        Effect.sync(() => {
          makeDataFolder(dirname(store.path))
          return sqliteStores({ path: store.path, open: openSqlite, mapShared })
        })
      )
    case "mongodb":
      // The driver is loaded only when it is used: in process memory it would hold ~14 MB for nothing.
      return loadedWhenBuilt(
        () => import("../adapters/mongodb/index.ts"),
        ({ mongoStores }) => mongoStores(store.mongo).pipe(Layer.provide(jsonLogger)),
        { name: "mongodb", feature: "The MongoDB store (MONGODB_URI)" }
      )
  }
}

/**
 * Seats follow every member change; should the provider have failed then, they catch up here, in
 * every organisation, at start and every few minutes (nothing is written or called when they are in step).
 */
const seatReconciliation = Layer.effectDiscard(
  Effect.forkScoped(
    inEveryOrganization(() => keepSeatsInStep).pipe(
      Effect.catchCause((cause) =>
        Effect.logWarning("Seats not brought in step: the organisations could not be read", cause)
      ),
      Effect.repeat(Schedule.spaced("5 minutes"))
    )
  )
).pipe(Layer.provide(jsonLogger))

const requestCount = () => Layer.sync(RequestsStarted, () => ({ started: 0 }))

/** Every organisation's Owner role holds the whole catalog before the first request (see `setUpOrganizations`). */
const organizationSetUp = Layer.effectDiscard(setUpOrganizations)

const atStart = Layer.mergeAll(
  seatReconciliation,
  organizationSetUp,
  eventSender.pipe(Layer.provide(jsonLogger))
)

/** Invitations and account mail: one SMTP transport for both, or none. */
const mail = (settings: Settings) =>
  Option.match(settings.mail.smtp, {
    onNone: () => ({ invitationMail: noInvitationMailLayer, accountMail: noAccountMailLayer }),
    onSome: (smtp) => {
      // One layer value for both options: it is built once, with one pool of connections.
      const both = loadedWhenBuilt(
        () => import("../adapters/mail/smtp-mail.ts"),
        ({ smtpMailLayer }) => smtpMailLayer(smtp),
        { name: "nodemailer", feature: "Mail (ROSTER_SMTP_URL)" }
      )
      return { invitationMail: both, accountMail: both }
    }
  })

/**
 * Every port of the core as the settings choose them (store, hasher, provider, mail): what the
 * service runs on, and what the operator's commands (`npm run roster`) run on too.
 */
export const coreServices = (settings: Settings) =>
  rosterOn(stores(settings), {
    plans: settings.plans,
    sessionTtl: settings.sessionTtl,
    signupOpen: settings.signupOpen,
    invitationTtl: settings.mail.invitationTtl,
    resetTtl: settings.mail.resetTtl,
    secretsKeys: settings.secretsKeys,
    webhooks: settings.outboundEvents,
    verificationTtl: settings.mail.verificationTtl,
    ...mail(settings),
    paymentProvider: Option.match(settings.stripe, {
      onNone: () => noPaymentProviderLayer,
      // Stripe's package is loaded only when it is used, as the MongoDB driver is.
      onSome: stripeProviderLayer
    }),
    ...Option.match(settings.masterKey, {
      onNone: () => ({}),
      onSome: (key) => ({ masterKey: Redacted.value(key) })
    })
  })

/**
 * Which store, hasher, provider, verifier, log and metrics recorder the service runs with: decided
 * here and nowhere else.
 */
export const rosterServices = (settings: Settings, metrics?: MetricsRecorder) =>
  tracedWhenTracing(
    settings,
    Layer.mergeAll(
      metrics === undefined ? Layer.empty : Layer.succeed(Metrics)(metrics),
      tracing(settings),
      // One count of requests, which the edge adds to and the events' sender reads.
      atStart.pipe(Layer.provideMerge(coreServices(settings)), Layer.provideMerge(requestCount())),
      webhookVerifier(settings),
      Layer.succeed(RequestLog)(settings.logRequests ? jsonLines(writeLine) : () => {}),
      // What use cases log while serving a request comes out as the same JSON lines, naming its trace.
      jsonLogger
    )
  )
