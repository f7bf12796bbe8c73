import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { Effect, Exit, Redacted } from "effect"
import { Webhook } from "standardwebhooks"
import { afterEach, describe, expect, it } from "vitest"
import { httpWebhookSenderLayer, type Resolve } from "../../adapters/webhooks/http-webhook-sender.ts"
import { type OutboundMessage, WebhookSender } from "../../core/index.ts"

const servers: Array<Server> = []
afterEach(() => {
  for (const server of servers.splice(0)) server.close()
})

interface Taken {
  readonly url: string
  readonly headers: IncomingMessage["headers"]
  readonly body: string
}

/** A local server answering with `answer`, recording what it was sent. */
const listen = async (answer: (response: ServerResponse) => void) => {
  const taken: Array<Taken> = []
  const server = createServer((request, response) => {
    let body = ""
    request.on("data", (chunk) => (body += chunk))
    request.on("end", () => {
      taken.push({ url: request.url ?? "", headers: request.headers, body })
      answer(response)
    })
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return { port: (server.address() as AddressInfo).port, taken }
}

const secret = `whsec_${Buffer.alloc(32, 7).toString("base64")}`
const other = `whsec_${Buffer.alloc(32, 9).toString("base64")}`
const loopback: Resolve = async () => [{ address: "127.0.0.1", family: 4 }]

const sender = (options: Parameters<typeof httpWebhookSenderLayer>[0]) =>
  Effect.runSync(Effect.provide(WebhookSender.use(Effect.succeed), httpWebhookSenderLayer(options)))

const message = (url: string, secrets = [secret]): OutboundMessage => ({
  url,
  id: "evt_1",
  body: JSON.stringify({ type: "webhook.test", timestamp: "2026-01-01T00:00:00Z", data: {} }),
  secrets: secrets.map((value) => Redacted.make(value))
})

const send = (options: Parameters<typeof httpWebhookSenderLayer>[0], sent: OutboundMessage) =>
  Effect.runPromise(sender(options).send(sent))

describe("posting a message", () => {
  it("signs it as Standard Webhooks says, once per secret, and keeps the answer's first kilobyte", async () => {
    const { port, taken } = await listen((response) => response.writeHead(200).end("y".repeat(5000)))
    const result = await send(
      { allowPrivate: true },
      message(`http://127.0.0.1:${port}/hooks`, [secret, other])
    )
    expect(result.statusCode).toBe(200)
    expect(result.response).toBe("y".repeat(1024))
    const [request] = taken
    expect(request?.url).toBe("/hooks")
    expect(request?.headers["webhook-id"]).toBe("evt_1")
    expect(request?.headers["content-type"]).toBe("application/json")
    expect(String(request?.headers["webhook-signature"]).split(" ")).toHaveLength(2)
    const headers = {
      "webhook-id": String(request?.headers["webhook-id"]),
      "webhook-timestamp": String(request?.headers["webhook-timestamp"]),
      "webhook-signature": String(request?.headers["webhook-signature"])
    }
    for (const each of [secret, other])
      expect(() => new Webhook(each).verify(request?.body ?? "", headers)).not.toThrow()
    expect(() =>
      new Webhook(`whsec_${Buffer.alloc(32, 1).toString("base64")}`).verify(request?.body ?? "", headers)
    ).toThrow()
  })

  it("reads Retry-After on 429 and 503 only, follows no redirect, and gives up after the timeout", async () => {
    const busy = await listen((response) => response.writeHead(429, { "retry-after": "120" }).end())
    expect(await send({ allowPrivate: true }, message(`http://127.0.0.1:${busy.port}/`))).toMatchObject({
      statusCode: 429,
      retryAfter: 120
    })
    const failing = await listen((response) => response.writeHead(500, { "retry-after": "120" }).end())
    expect(
      (await send({ allowPrivate: true }, message(`http://127.0.0.1:${failing.port}/`))).retryAfter
    ).toBeUndefined()
    const target = await listen((response) => response.writeHead(204).end())
    const moved = await listen((response) =>
      response.writeHead(302, { location: `http://127.0.0.1:${target.port}/` }).end()
    )
    expect((await send({ allowPrivate: true }, message(`http://127.0.0.1:${moved.port}/`))).statusCode).toBe(
      302
    )
    expect(target.taken, "the redirect's target is never reached").toEqual([])
    const silent = await listen(() => {})
    const timedOut = await send(
      { allowPrivate: true, timeout: "200 millis" },
      message(`http://127.0.0.1:${silent.port}/`)
    )
    expect(timedOut.error).toMatch(/timed out/u)
    expect(timedOut.statusCode).toBeUndefined()
  })

  it("connects to the address it checked: a name resolving to a private one is refused at each send", async () => {
    const { port, taken } = await listen((response) => response.writeHead(204).end())
    const refused = await send(
      { allowPrivate: false, resolve: loopback },
      message(`https://rebind.example:${port}/`)
    )
    expect(refused.error).toMatch(/refused/u)
    const plain = await send(
      { allowPrivate: false, resolve: loopback },
      message(`http://rebind.example:${port}/`)
    )
    expect(plain.error).toMatch(/refused: not https/u)
    expect(taken).toEqual([])
    const allowed = await send(
      { allowPrivate: true, resolve: loopback },
      message(`http://pinned.example:${port}/`)
    )
    expect(allowed.statusCode, "the resolver given is the one connected by").toBe(204)
    expect(taken[0]?.headers.host).toBe(`pinned.example:${port}`)
  })
})

describe("checking a destination", () => {
  const resolve: Resolve = async (hostname) => {
    if (hostname === "inside.example") return [{ address: "10.0.0.8", family: 4 }]
    if (hostname === "mixed.example")
      return [
        { address: "93.184.216.34", family: 4 },
        { address: "fd00::1", family: 6 }
      ]
    if (hostname === "public.example") return [{ address: "93.184.216.34", family: 4 }]
    throw new Error("ENOTFOUND")
  }
  const check = (url: string, allowPrivate = false) =>
    Effect.runPromise(Effect.exit(sender({ allowPrivate, resolve }).checkDestination(url)))
  const reasonOf = (exit: Exit.Exit<void, { readonly reason: string }>) =>
    Exit.isFailure(exit)
      ? (exit.cause.reasons[0] as { error?: { reason: string } })?.error?.reason
      : "allowed"

  it("refuses http, and hosts that are or resolve to loopback, private, link-local or unique-local addresses", async () => {
    const cases: Record<string, string> = {
      "http://public.example/": "scheme",
      "https://127.0.0.1/": "private_address",
      "https://[::1]/": "private_address",
      "https://[::ffff:127.0.0.1]/": "private_address",
      "https://169.254.169.254/": "private_address",
      "https://192.168.1.1/": "private_address",
      "https://[fe80::1]/": "private_address",
      "https://localhost/": "private_address",
      "https://api.localhost/": "private_address",
      "https://inside.example/": "private_address",
      "https://mixed.example/": "private_address",
      "https://public.example/hooks": "allowed",
      "https://93.184.216.34/": "allowed",
      "https://unknown.example/": "allowed"
    }
    for (const [url, expected] of Object.entries(cases))
      expect(reasonOf(await check(url)), url).toBe(expected)
    expect(reasonOf(await check("http://127.0.0.1:8080/", true)), "allowed when private networks are").toBe(
      "allowed"
    )
  })

  it("judges an IPv6 address that carries an IPv4 one by the IPv4 address, and refuses the deprecated ranges", async () => {
    const cases: Record<string, string> = {
      // IPv4-compatible (::/96, deprecated): refused whatever it carries.
      "https://[::10.0.0.1]/": "private_address",
      "https://[::8.8.8.8]/": "private_address",
      "https://[::]/": "private_address",
      // IPv4-mapped and -translated (::ffff:0:0/96, ::ffff:0:0:0/96), NAT64 (64:ff9b::/96), 6to4 (2002::/16).
      "https://[::ffff:10.0.0.1]/": "private_address",
      "https://[::ffff:0:a00:1]/": "private_address",
      "https://[::ffff:0:7f00:1]/": "private_address",
      "https://[64:ff9b::10.0.0.1]/": "private_address",
      "https://[64:ff9b::127.0.0.1]/": "private_address",
      "https://[2002:a9fe:a9fe::1]/": "private_address",
      "https://[::ffff:8.8.8.8]/": "allowed",
      "https://[64:ff9b::8.8.8.8]/": "allowed",
      "https://[2002:808:808::1]/": "allowed",
      // Site-local (fec0::/10, deprecated), the local NAT64 prefix, and 0.0.0.0/8.
      "https://[fec0::1]/": "private_address",
      "https://[64:ff9b:1::1]/": "private_address",
      "https://0.1.2.3/": "private_address",
      "https://[2001:4860:4860::8888]/": "allowed"
    }
    for (const [url, expected] of Object.entries(cases))
      expect(reasonOf(await check(url)), url).toBe(expected)
  })
})
