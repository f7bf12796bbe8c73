import { execFile } from "node:child_process"
import { promisify } from "node:util"
import { Effect, Redacted } from "effect"
import { FetchHttpClient } from "effect/http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createRosterClient, makeRosterClient, RosterProblem } from "../../adapters/http/client.ts"
import { clientScenario } from "../support/client-scenario.ts"
import { startReceiver } from "../support/event-receiver.ts"
import { eventually } from "../support/eventually.ts"
import { type RunningServer, startServer } from "../support/server-process.ts"

const masterKey = "client-test-master-key-with-enough-entropy"

let server: RunningServer
beforeAll(async () => {
  server = await startServer(["npm", "start", "--silent"], {
    ROSTER_MASTER_KEY: masterKey,
    ROSTER_WEBHOOK_ALLOW_PRIVATE: "on"
  })
})
afterAll(() => server?.kill())

const expectOutcome = (outcome: Awaited<ReturnType<typeof runOnNode>>, name: string) => {
  expect(outcome.role).toEqual({ id: expect.any(Number), roleKey: name, activeStatus: true })
  expect(outcome.duplicate).toBe("DuplicateRoleKey")
  expect(outcome.refused).toBe("Unauthorized")
  expect(outcome.me).toEqual({ principal: "member", username: name, permissions: ["team.read"] })
  expect(outcome.readBack).toEqual({
    id: outcome.added.id,
    email: `${name}@example.com`,
    createdAt: outcome.added.createdAt
  })
  expect(outcome.members).toEqual([name])
  expect(outcome.nextPage).toBeNull()
}

const runOnNode = (name: string) => Effect.runPromise(clientScenario(server.url, masterKey, name))

describe("the typed client against `npm start`", () => {
  it("on Node: adds a role and a member, signs in, reads back; problems arrive as typed errors", async () => {
    expectOutcome(await runOnNode("node-client"), "node-client")
  })

  it("on Bun: the same", async () => {
    const { stdout } = await promisify(execFile)("node_modules/.bin/bun", [
      "test/support/client-scenario.ts",
      server.url,
      masterKey,
      "bun-client"
    ])
    expectOutcome(JSON.parse(stdout), "bun-client")
  })

  it("the Promise client, from plain Node: adds a role, pages the roles, and rejects with a RosterProblem", async () => {
    const roster = createRosterClient({ baseUrl: server.url, token: masterKey })
    const role = await roster.team.addRole({ name: "Promised", roleKey: "promise-client" })
    const keys: Array<string> = []
    for await (const each of roster.team.listRoles({ limit: 1 })) keys.push(each.roleKey)
    expect(keys).toContain("promise-client")
    const again = await roster.team
      .addRole({ name: "Again", roleKey: "promise-client" })
      .catch((e: unknown) => e)
    expect(again).toBeInstanceOf(RosterProblem)
    expect(again).toMatchObject({ status: 409, code: "duplicate_role_key" })
    expect(await roster.team.getRole({ id: role.id })).toMatchObject({ roleKey: "promise-client" })
    const granted = await roster.team.grantPermission({ roleId: role.id, permissionId: 1 })
    expect(await roster.team.getRole({ id: role.id })).toMatchObject({
      permissionIds: [1],
      recordId: granted.id
    })
    expect(await roster.team.getRolePermissions({ id: role.id })).toMatchObject({
      id: granted.id,
      roleId: role.id
    })
  })

  it("the typed client makes an API key, calls with it, and is refused with it once it is revoked", async () => {
    const outcome = await Effect.runPromise(
      Effect.gen(function* () {
        const operator = yield* makeRosterClient({ baseUrl: server.url, token: masterKey })
        const made = yield* operator.apiKeys.createApiKey({
          payload: { name: "Typed", permissions: ["team.read"] }
        })
        const key = made.key === null ? "" : Redacted.value(made.key)
        const asKey = yield* makeRosterClient({ baseUrl: server.url, token: key })
        const me = yield* asKey.auth.me()
        const listed = yield* operator.apiKeys.listApiKeys({ query: {} })
        const revoked = yield* operator.apiKeys.revokeApiKey({ params: { id: made.id } })
        const refused = yield* Effect.flip(asKey.auth.me())
        return {
          key,
          me,
          listed: listed.body.map((each) => each.id),
          made: made.id,
          revoked: revoked.id,
          refused
        }
      }).pipe(Effect.provide(FetchHttpClient.layer))
    )
    expect(outcome.key).toMatch(/^rk_/)
    expect(outcome.me.principal).toEqual({ kind: "api_key", id: outcome.made, name: "Typed" })
    expect(outcome.listed).toContain(outcome.made)
    expect(outcome.revoked).toBe(outcome.made)
    expect(outcome.refused._tag).toBe("Unauthorized")
  })

  it("both clients register an endpoint, send it a test, and read its deliveries", async () => {
    const receiver = await startReceiver()
    try {
      const made = await Effect.runPromise(
        Effect.gen(function* () {
          const operator = yield* makeRosterClient({ baseUrl: server.url, token: masterKey })
          const webhook = yield* operator.webhooks.createWebhook({
            payload: { url: `${receiver.url}/hooks`, events: ["webhook.test"], description: "Typed" }
          })
          const secret = webhook.secret === null ? "" : Redacted.value(webhook.secret)
          const types = yield* operator.webhooks.listEventTypes()
          return { id: webhook.id, secret, types: types.map((each) => each.type) }
        }).pipe(Effect.provide(FetchHttpClient.layer))
      )
      expect(made.secret).toMatch(/^whsec_/u)
      expect(made.types).toContain("member.removed")
      await receiver.set({ secrets: [made.secret] })
      const roster = createRosterClient({ baseUrl: server.url, token: masterKey })
      const queued = await roster.webhooks.testWebhook({ id: made.id })
      expect(queued).toMatchObject({ type: "webhook.test", status: "pending", attempts: 0 })
      const [message] = await receiver.waitFor((got) => got.length > 0)
      expect(message).toMatchObject({ id: queued.eventId, verifiedBy: 1 })
      const succeeded = async () => {
        const ids: Array<string> = []
        for await (const each of roster.webhooks.listDeliveries({ id: made.id, status: "succeeded" }))
          ids.push(each.id)
        return ids
      }
      // Roster records the receiver's answer just after the receiver has seen the message.
      expect(await eventually(succeeded, (ids) => ids.length > 0)).toEqual([queued.id])
      const refused = await roster.webhooks
        .createWebhook({ url: "ftp://example.com", events: ["*"] })
        .catch((e: unknown) => e)
      expect(refused).toMatchObject({ status: 400, code: "validation_failed" })
    } finally {
      await receiver.stop()
    }
  })
})
