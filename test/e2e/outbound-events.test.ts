import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { type Receiver, startReceiver } from "../support/event-receiver.ts"
import { eventually } from "../support/eventually.ts"
import { type RunningServer, scriptCommand, startServer } from "../support/server-process.ts"
import { mongoUri } from "../support/stores.ts"

const masterKey = "events-e2e-master-key-long-enough-0123456789"
const password = "a long enough passphrase"

const cleanup: Array<() => unknown> = []
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step()
})

const dataDirectory = () => {
  const directory = mkdtempSync(join(tmpdir(), "roster-events-e2e-"))
  cleanup.push(() => rmSync(directory, { recursive: true, force: true }))
  return directory
}

/** Roster as `npm start` runs it, sending to local receivers, retrying after a second. */
const roster = async (directory: string, env: Record<string, string> = {}) => {
  const server = await startServer(scriptCommand("start"), {
    ROSTER_DATA_DIR: directory,
    ROSTER_MASTER_KEY: masterKey,
    ROSTER_WEBHOOK_ALLOW_PRIVATE: "on",
    ROSTER_WEBHOOK_RETRY_SCHEDULE: "1,1,1",
    ...env
  })
  cleanup.push(server.kill)
  return server
}

const receiver = async (port?: number) => {
  const started = await startReceiver(port)
  cleanup.push(started.stop)
  return started
}

const call = async (server: RunningServer, method: string, path: string, body?: unknown) => {
  const answer = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${masterKey}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  const text = await answer.text()
  return { status: answer.status, body: text === "" ? null : JSON.parse(text) }
}

const endpoint = async (server: RunningServer, to: Receiver, events: ReadonlyArray<string> = ["*"]) => {
  const created = await call(server, "POST", "/api/v1/organization/webhooks", {
    url: `${to.url}/hooks`,
    events
  })
  expect(created.status, JSON.stringify(created.body)).toBe(200)
  await to.set({ secrets: [created.body.secret] })
  return created.body as { id: string; secret: string }
}

let members = 0
const addMember = async (server: RunningServer, roleId: number) => {
  const username = `member${++members}`
  const added = await call(server, "POST", "/api/v1/team/add", {
    username,
    email: `${username}@example.com`,
    password,
    activestatus: true,
    roleId
  })
  expect(added.status, JSON.stringify(added.body)).toBe(200)
  return added.body as { id: string }
}

const addRole = async (server: RunningServer) => {
  const role = await call(server, "POST", "/api/v1/team/role/add", {
    name: "Staff",
    roleKey: `staff${++members}`
  })
  expect(role.status).toBe(200)
  return role.body.id as number
}

const deliveriesOf = async (server: RunningServer, webhookId: string) =>
  (await call(server, "GET", `/api/v1/organization/webhooks/${webhookId}/deliveries`)).body as Array<{
    id: string
    eventId: string
    type: string
    attempts: number
    status: string
  }>

describe("Outbound events (npm start, a receiver process verifying each message)", () => {
  it("announces each change once, signed, with the resource and never a secret", async () => {
    const to = await receiver()
    const server = await roster(dataDirectory())
    expect(server.output()).toContain("events: webhooks may be sent over http and to private addresses")
    await endpoint(server, to)
    const roleId = await addRole(server)
    const member = await addMember(server, roleId)
    expect((await call(server, "DELETE", `/api/v1/team/members/${member.id}`)).status).toBeLessThan(300)
    const received = await to.waitFor((got) => got.some((message) => message.type === "member.removed"))
    expect(received.map((message) => message.type)).toEqual([
      "role.created",
      "member.added",
      "member.removed"
    ])
    for (const message of received) {
      expect(message.verifiedBy, "verified with the endpoint's secret").toBe(1)
      expect(message.body).not.toMatch(/password|whsec_|secret/iu)
    }
    expect(new Set(received.map((message) => message.id)).size).toBe(3)
    const added = JSON.parse(received[1]?.body ?? "{}")
    expect(added.data).toMatchObject({
      organizationId: "default",
      member: { id: member.id, username: "member2", email: "member2@example.com", roleId }
    })
    expect(Date.parse(added.timestamp)).not.toBeNaN()
  })

  it("tries a failing receiver again with the same webhook-id, exhausts, and sends again by hand", async () => {
    const to = await receiver()
    const server = await roster(dataDirectory())
    const webhook = await endpoint(server, to, ["role.created"])
    await to.set({ plan: [500, 503] })
    await addRole(server)
    const healed = await to.waitFor((got) => got.some((message) => message.answered === 204))
    expect(healed.map((message) => message.answered)).toEqual([500, 503, 204])
    expect(new Set(healed.map((message) => message.id)).size, "the same webhook-id on every try").toBe(1)
    const [delivered] = await eventually(
      () => deliveriesOf(server, webhook.id),
      ([newest]) => newest?.status === "succeeded"
    )
    expect(delivered).toMatchObject({ status: "succeeded", attempts: 3, type: "role.created" })

    await to.set({ otherwise: 500 })
    await addRole(server)
    const [exhausted] = await eventually(
      () => deliveriesOf(server, webhook.id),
      ([newest]) => newest?.status === "exhausted"
    )
    expect(exhausted?.attempts, "one try, then one after each of the three waits").toBe(4)
    await to.set({ otherwise: 204 })
    const retried = await call(
      server,
      "POST",
      `/api/v1/organization/webhooks/${webhook.id}/deliveries/${exhausted?.id}/retry`
    )
    expect(retried.body.status).toBe("pending")
    await eventually(
      () => deliveriesOf(server, webhook.id),
      ([newest]) => newest?.status === "succeeded"
    )
    const sent = (await to.received()).filter((message) => message.id === exhausted?.eventId)
    expect(sent.map((message) => message.answered)).toEqual([500, 500, 500, 500, 204])
  })

  it("disables an endpoint that answers 410 Gone, and signs with both secrets after a rotation", async () => {
    const to = await receiver()
    const server = await roster(dataDirectory())
    const webhook = await endpoint(server, to)
    const rotated = await call(server, "POST", `/api/v1/organization/webhooks/${webhook.id}/rotate-secret`)
    expect(rotated.body.secret).toMatch(/^whsec_/u)
    expect(rotated.body.secret).not.toBe(webhook.secret)
    await to.set({ secrets: [webhook.secret, rotated.body.secret] })
    expect((await call(server, "POST", `/api/v1/organization/webhooks/${webhook.id}/test`)).status).toBe(200)
    const [test] = await to.waitFor((got) => got.length === 1)
    expect(test).toMatchObject({ type: "webhook.test", signatures: 2, verifiedBy: 2 })

    await to.set({ plan: [410] })
    await addRole(server)
    await eventually(
      () => call(server, "GET", `/api/v1/organization/webhooks/${webhook.id}`),
      (answer) => answer.body.enabled === false
    )
    const audit = await call(server, "GET", "/api/v1/audit/events?action=webhook.disabled")
    expect(audit.body[0]).toMatchObject({ actor: { kind: "system" }, target: { id: webhook.id } })
    await addRole(server)
    await new Promise((resolve) => setTimeout(resolve, 2500))
    expect((await to.received()).length, "a disabled endpoint is sent nothing").toBe(2)
  })

  it("delivers what was announced while the receiver was down, across a restart of Roster", async () => {
    const directory = dataDirectory()
    const first = await receiver()
    const port = Number(new URL(first.url).port)
    const server = await roster(directory)
    const webhook = await endpoint(server, first, ["role.created"])
    await first.stop()
    await addRole(server)
    const [failed] = await eventually(
      () => deliveriesOf(server, webhook.id),
      ([newest]) => newest?.status === "failed"
    )
    server.process.kill("SIGTERM")
    expect(await server.exited, "a stop on SIGTERM is clean").toBe(0)
    const again = await receiver(port)
    await again.set({ secrets: [webhook.secret] })
    await roster(directory)
    const [message] = await again.waitFor((got) => got.length > 0)
    expect(message).toMatchObject({ id: failed?.eventId, type: "role.created", verifiedBy: 1 })
  })

  it.each([
    ["SQLite", () => ({ ROSTER_DATA_DIR: dataDirectory() })],
    [
      "MongoDB",
      () => ({ MONGODB_URI: mongoUri(), MONGODB_DB: `roster_e2e_${crypto.randomUUID().replaceAll("-", "")}` })
    ]
  ])("sends each event once from two instances on one database (%s)", async (_, storeOf) => {
    const store = storeOf()
    const to = await receiver()
    const instances = [await roster(dataDirectory(), store), await roster(dataDirectory(), store)] as const
    await endpoint(instances[0], to, ["role.created"])
    for (let i = 0; i < 20; i++) await addRole(instances[i % 2] as RunningServer)
    await to.waitFor((got) => new Set(got.map((message) => message.id)).size === 20, 30_000)
    await new Promise((resolve) => setTimeout(resolve, 2500))
    const received = await to.received()
    expect(received.length, "no event sent twice").toBe(20)
    expect(received.every((message) => message.verifiedBy === 1 && message.answered === 204)).toBe(true)
  })

  it("announces every change a killed instance made on MongoDB, and none it did not, once restarted", async () => {
    const store = {
      MONGODB_URI: mongoUri(),
      MONGODB_DB: `roster_e2e_${crypto.randomUUID().replaceAll("-", "")}`
    }
    const to = await receiver()
    const first = await roster(dataDirectory(), { ...store, ROSTER_WEBHOOK_LEASE: "3" })
    await endpoint(first, to, ["role.created"])
    let answered = 0
    const burst = Array.from({ length: 60 }, (_, i) =>
      fetch(`${first.url}/api/v1/team/role/add`, {
        method: "POST",
        headers: { authorization: `Bearer ${masterKey}` },
        body: JSON.stringify({ name: `Role ${i}`, roleKey: `burst-${i}` })
      }).then(
        () => answered++,
        () => undefined
      )
    )
    // Killed while changes are in flight: some written with their entry not yet relayed, some not at all.
    while (answered < 15) await new Promise((resolve) => setTimeout(resolve, 5))
    first.kill()
    await Promise.allSettled(burst)
    await first.exited
    const second = await roster(dataDirectory(), { ...store, ROSTER_WEBHOOK_LEASE: "3" })
    const roles = (await call(second, "GET", "/api/v1/team/roles?limit=200")).body as Array<{ id: number }>
    const made = roles.map((role) => role.id).sort()
    const announced = async () =>
      (await to.received()).map((message) => JSON.parse(message.body).data.role.id as number)
    await to.waitFor((got) => new Set(got.map((message) => message.id)).size >= made.length, 30_000)
    const ids = await announced()
    expect([...new Set(ids)].sort(), "every role made, and only those, announced").toEqual(made)
  })

  it("refuses an endpoint that is not https or reaches a private address, unless allowed", async () => {
    const server = await roster(dataDirectory(), { ROSTER_WEBHOOK_ALLOW_PRIVATE: "off" })
    expect(server.output()).toContain("events: webhooks are sent over https to public addresses only")
    for (const url of [
      "http://example.com/hooks",
      "https://127.0.0.1/hooks",
      "https://[::1]/hooks",
      "https://10.1.2.3/hooks",
      "https://169.254.169.254/latest",
      "https://[fd00::1]/hooks",
      "https://localhost:8443/hooks"
    ]) {
      const refused = await call(server, "POST", "/api/v1/organization/webhooks", { url, events: ["*"] })
      expect(refused.status, url).toBe(400)
      expect(refused.body).toMatchObject({ code: "validation_failed", errors: [{ path: "body.url" }] })
    }
    const listed = await call(server, "GET", "/api/v1/organization/webhooks")
    expect(listed.body, "nothing was made").toEqual([])
  })
})
