import { type Context, Effect, Layer, Option, Redacted } from "effect"
import { afterAll, expect } from "vitest"
import { RequestLog, type RequestLogEntry } from "../../adapters/http/edge/request-log.ts"
import { type HttpServices, makeWebHandler, type WebHandler } from "../../adapters/http/web-handler.ts"
import { makePrometheusMetrics } from "../../adapters/metrics/prometheus.ts"
import { Metrics } from "../../adapters/metrics/recorder.ts"
import { webhookVerifierLayer } from "../../adapters/payments/webhook-verifier-layer.ts"
import type { RosterOptions } from "../../app/roster-layer.ts"
import { PermissionCatalog, type StorePorts } from "../../core/index.ts"
import { masterKey, password, testRoster } from "./roster.ts"
import { mongoTestStores, sqliteTestStores } from "./stores.ts"

export const webhookSecret = "whsec_test_secret_for_roster"

export interface ApiOptions extends RosterOptions {
  /** `open`: no master key (open local mode). Defaults to `secure` with the test master key. */
  readonly mode?: "open" | "secure"
  /** How the webhook verifies deliveries; signed schemes use `webhookSecrets` (default: `webhookSecret`). */
  readonly webhook?: "stripe" | "standard-webhooks" | "unsigned" | "reject"
  readonly webhookSecrets?: ReadonlyArray<string>
  readonly maxBodyBytes?: number
  readonly corsOrigins?: ReadonlyArray<string>
  /** The public origin behind a proxy (`ROSTER_PUBLIC_URL`). */
  readonly publicOrigin?: string
  /** `ROSTER_PUBLIC_URL` whole, its path kept: access tokens' issuer. */
  readonly publicUrl?: string
  /** How many password checks may run at once; unbounded when absent. */
  readonly passwordChecksAtOnce?: number
  /** Metrics on (`ROSTER_METRICS=on`), with this `ROSTER_METRICS_TOKEN` when given. */
  readonly metrics?: { readonly token?: string }
  /** The built console to serve (`npm run build` writes `dist/console`). */
  readonly consoleDirectory?: string
}

export interface Answer {
  readonly status: number
  readonly headers: Headers
  // biome-ignore lint/suspicious/noExplicitAny: test answers are inspected field by field
  readonly body: any
  readonly text: string
}

export interface TestApi {
  readonly call: (
    method: string,
    path: string,
    options?: {
      readonly body?: unknown
      readonly rawBody?: string
      readonly token?: string
      readonly headers?: Record<string, string>
      readonly client?: string
    }
  ) => Promise<Answer>
  readonly logs: Array<RequestLogEntry>
  readonly web: WebHandler
}

/** A Standard Webhooks secret (`whsec_` and base64) for tests. */
export const standardWebhooksSecret = `whsec_${btoa("roster standard webhooks test secret")}`

const verifierFor = (
  webhook: NonNullable<ApiOptions["webhook"]>,
  secrets: ReadonlyArray<string> | undefined
) => {
  if (webhook === "unsigned" || webhook === "reject") return webhookVerifierLayer({ scheme: webhook })
  const fallback = webhook === "stripe" ? webhookSecret : standardWebhooksSecret
  return webhookVerifierLayer({
    scheme: webhook,
    secrets: (secrets ?? [fallback]).map((secret) => Redacted.make(secret))
  })
}

/**
 * `ROSTER_TEST_STORE=mongodb` runs the same HTTP tests on MongoDB (a fresh database per service):
 * vitest's `http-on-mongodb` project does, so the HTTP suite passes unchanged on both stores;
 * `ROSTER_TEST_STORE=sqlite` on SQLite (a fresh file per service), in the run under Bun.
 */
const storesUnderTest =
  process.env.ROSTER_TEST_STORE === "mongodb"
    ? [mongoTestStores]
    : process.env.ROSTER_TEST_STORE === "sqlite"
      ? [sqliteTestStores]
      : []

/**
 * The store under test's service `tag` with `change` applied over it, for `startApi`'s `override`:
 * it changes the very store the service runs on, so what the other stores keep stays shared with it.
 */
export const changedStore = <Identifier extends StorePorts, Shape>(
  tag: Context.Service<Identifier, Shape>,
  change: (store: Shape) => Shape
): Layer.Layer<Identifier, never, Identifier> =>
  Layer.effect(tag)(tag.use((store) => Effect.succeed(change(store))))

const started: Array<WebHandler> = []
afterAll(async () => {
  await Promise.all(started.splice(0).map((web) => web.dispose()))
})

/** The HTTP service, called through its web handler exactly as a server would. */
export const startApi = async <Replaced extends HttpServices = never>(
  options: ApiOptions & {
    /** Replaces some of the services, e.g. with a store that is down, built over the others. */
    readonly override?: Layer.Layer<Replaced, never, HttpServices>
  } = {}
): Promise<TestApi> => {
  const logs: Array<RequestLogEntry> = []
  const {
    mode = "secure",
    webhook = "stripe",
    webhookSecrets,
    maxBodyBytes = 1024 * 1024,
    corsOrigins = [],
    publicOrigin,
    publicUrl,
    passwordChecksAtOnce,
    metrics,
    consoleDirectory,
    override,
    ...roster
  } = options
  const prometheus = metrics === undefined ? undefined : makePrometheusMetrics()
  const base = Layer.mergeAll(
    testRoster(mode === "open" ? { ...roster, masterKey: undefined as never } : roster),
    ...storesUnderTest,
    verifierFor(webhook, webhookSecrets),
    Layer.succeed(RequestLog)((entry) => void logs.push(entry)),
    prometheus === undefined ? Layer.empty : Layer.succeed(Metrics)(prometheus.recorder)
  )
  const services = override === undefined ? base : Layer.provideMerge(override, base)
  const web = await makeWebHandler(services, {
    maxBodyBytes,
    openLocal: mode === "open",
    corsOrigins,
    ...(publicOrigin === undefined ? {} : { publicOrigin }),
    ...(publicUrl === undefined ? {} : { publicUrl }),
    ...(passwordChecksAtOnce === undefined ? {} : { passwordChecksAtOnce }),
    ...(consoleDirectory === undefined ? {} : { consoleDirectory }),
    ...(prometheus === undefined
      ? {}
      : {
          metrics: {
            ...prometheus,
            token: Option.fromUndefinedOr(metrics?.token).pipe(Option.map((token) => Redacted.make(token)))
          }
        })
  })
  started.push(web)
  const call: TestApi["call"] = async (method, path, { body, rawBody, token, headers, client } = {}) => {
    const response = await web.handler(
      new Request(`http://localhost${path}`, {
        method,
        headers: {
          "content-type": "*/*",
          ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
          ...headers
        },
        ...(rawBody !== undefined
          ? { body: rawBody }
          : body !== undefined
            ? { body: JSON.stringify(body) }
            : {})
      }),
      { remoteAddress: client ?? "192.0.2.1" }
    )
    const text = await response.text()
    let parsed: unknown
    try {
      parsed = text === "" ? undefined : JSON.parse(text)
    } catch {
      parsed = undefined
    }
    return { status: response.status, headers: response.headers, body: parsed, text }
  }
  return { call, logs, web }
}

export { masterKey, password }

/** The fields a member is shown with, sorted: never a password or its hash. */
export const memberFields = [
  "accountActiveStatus",
  "activestatus",
  "createdAt",
  "email",
  "emailVerified",
  "id",
  "roleId",
  "username"
]

/** Every permission of the catalog by id: what an owner holds. */
export const everyPermission = PermissionCatalog.map((permission) => permission.id)

/** Creates a role with `permissionIds` and a member in it through the API, then logs in as that member. */
export const memberWithPermissions = async (
  api: TestApi,
  username: string,
  permissionIds: ReadonlyArray<number>
) => {
  const role = await api.call("POST", "/api/v1/team/role/add", {
    token: masterKey,
    body: { name: `${username} role`, roleKey: `${username}-role` }
  })
  const grants = []
  for (const permissionId of permissionIds) {
    grants.push(
      await api.call("POST", "/api/v1/team/role-permission-detail", {
        token: masterKey,
        body: { roleId: role.body.id, permissionId }
      })
    )
  }
  const member = await api.call("POST", "/api/v1/team/add", {
    token: masterKey,
    body: { username, email: `${username}@example.com`, password, activestatus: true, roleId: role.body.id }
  })
  const login = await api.call("POST", "/api/v1/auth/login", { body: { username, password } })
  const steps = [
    ["role", role],
    ...grants.map((grant) => ["grant", grant] as const),
    ["member", member],
    ["login", login]
  ] as const
  for (const [step, answer] of steps) {
    if (answer.status !== 200) throw new Error(`Setting up ${username} failed at the ${step}: ${answer.text}`)
  }
  return { role: role.body, member: member.body, token: login.body.token as string }
}

/**
 * Asserts an RFC 9457 problem: the status, the content type, and a body with `type` (the code's
 * URN), `title`, `status`, `detail` and `code`. Returns the body.
 */
export const expectProblem = (answer: Answer, status: number, code: string) => {
  expect(answer.status, answer.text).toBe(status)
  expect(answer.headers.get("content-type")).toMatch(/^application\/problem\+json/)
  expect(answer.body).toMatchObject({ status, code, type: `urn:roster:problem:${code}` })
  expect(answer.body.title).toEqual(expect.any(String))
  expect(answer.body.detail).toEqual(expect.any(String))
  return answer.body
}

export interface Credentials {
  readonly token?: string
  readonly headers?: Record<string, string>
}

/** `POST /team/role/add` with `role` (a key, named after itself, or a whole body) as `credentials`. */
export const addRole = (api: TestApi, role: string | Record<string, unknown>, credentials: Credentials) =>
  api.call("POST", "/api/v1/team/role/add", {
    body: typeof role === "string" ? { name: role, roleKey: role } : role,
    ...credentials
  })
