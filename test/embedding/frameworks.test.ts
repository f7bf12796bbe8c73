// The Embedding page's modules, run as written: the handler it makes, served from node:http and
// mounted under /roster in each framework as that framework's documentation mounts a handler.
import { rmSync } from "node:fs"
import { createServer, type RequestListener, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { serve } from "@hono/node-server"
import { bodyParser } from "@koa/bodyparser"
import { Effect, Fiber } from "effect"
import express from "express"
import Koa from "koa"
import mount from "koa-mount"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { toNodeHandler, type WebHandler } from "../../adapters/http/index.ts"
import { inMemoryRoster } from "../../app/roster-layer.ts"
import { addRole, createWebhook, listDeliveries } from "../../core/index.ts"
import { eventually } from "../support/eventually.ts"
import { expectServedUnder } from "../support/mounted.ts"
import { pageFences, pageModules, writePageModules } from "../support/page-modules.ts"
import { samlIdp, type TestSamlIdp } from "../support/saml-idp.ts"

const page = "docs/embedding.md"
const masterKey = "frameworks-master-key-long-enough-0123456789"
const modules = pageModules(page)
let folder: string
let web: WebHandler
let idp: TestSamlIdp

/** The application's own module that NestJS's mount imports. */
const appModule = `import "reflect-metadata"
import { Module } from "@nestjs/common"

export class AppModule {}
Module({})(AppModule)
`

/** One of the page's modules, as the application imports it. */
const load = <A>(name: string): Promise<A> => {
  if (!modules.has(name)) throw new Error(`${page} has no module ${name}`)
  return import(pathToFileURL(join(folder, name)).href)
}

beforeAll(async () => {
  process.env.ROSTER_MASTER_KEY = masterKey
  process.env.ROSTER_SECRETS_KEY = "frameworks-secrets-key-long-enough-0123456789"
  idp = await samlIdp()
  folder = writePageModules(modules, { "app.module.ts": appModule })
  web = (await load<{ web: WebHandler }>("roster.ts")).web
  // As an application's imports are, before any server runs: Hono's Node server replaces the
  // global Response when it starts, and RESPONSE_ALREADY_SENT must be made before that.
  for (const name of modules.keys()) if (name !== "promise-client.ts") await load(name)
})
afterAll(async () => {
  await web?.dispose()
  if (folder !== undefined) rmSync(folder, { recursive: true, force: true })
})

const listening = async (server: Server) => {
  if (!server.listening) await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

/** Serves `listener` on a free port for `use`, then closes it. */
const served = async (listener: RequestListener, use: (base: string) => Promise<void>) => {
  const server = createServer(listener)
  try {
    await use(await listening(server))
  } finally {
    server.close()
  }
}

const mounted = {
  masterKey,
  get idp() {
    return idp
  }
}

describe("the Embedding page's modules, run as written", () => {
  it("claims every fence of the page for a test: its commands, the project's files, Next's, and these modules", () => {
    const unclaimed = pageFences(page).filter(
      (info, index) => !(index === 0 && info === "sh") && !/ (?:file|next|mount)=\S+$/u.test(info)
    )
    expect(unclaimed).toEqual([])
    expect([...modules.keys()].sort()).toEqual([
      "express.ts",
      "fastify.ts",
      "hono-node.ts",
      "hono.ts",
      "koa.ts",
      "nest.ts",
      "node-http.ts",
      "promise-client.ts",
      "roster.ts",
      "sender.ts"
    ])
  })

  it("serves the handler from node:http", async () => {
    const { server } = await load<{ server: Server }>("node-http.ts")
    try {
      const base = await listening(server)
      const refused = await fetch(`${base}/api/v1/team/roles`)
      expect(refused.status).toBe(401)
      const roles = await fetch(`${base}/api/v1/team/roles`, {
        headers: { authorization: `Bearer ${masterKey}` }
      })
      expect(roles.status).toBe(200)
    } finally {
      server.close()
    }
  })

  it("runs the Promise client's calls against it", async () => {
    const { server } = await load<{ server: Server }>("node-http.ts")
    const base = await listening(server)
    process.env.ROSTER_URL = base
    process.env.ROSTER_TOKEN = masterKey
    await load("promise-client.ts")
    const roles = await fetch(`${base}/api/v1/team/roles`, {
      headers: { authorization: `Bearer ${masterKey}` }
    })
    expect((await roles.json()).map((role: { roleKey: string }) => role.roleKey)).toContain("readers")
    server.close()
  })

  it("runs the events' sender: an endpoint's delivery tried once it is forked", async () => {
    const { sender } = await load<{ sender: Effect.Effect<never> }>("sender.ts")
    const heard: Array<string> = []
    await served(
      (request, response) => {
        request.on("data", () => {})
        request.on("end", () => {
          heard.push(String(request.headers["webhook-id"]))
          response.writeHead(204).end()
        })
      },
      async (base) => {
        const operator = { _tag: "Master" } as const
        const program = Effect.gen(function* () {
          const endpoint = yield* createWebhook(operator, { url: `${base}/hooks`, events: ["role.created"] })
          const running = yield* Effect.forkChild(sender)
          yield* addRole(operator, { name: "Staff", roleKey: "staff" })
          yield* Effect.promise(() =>
            eventually(
              async () => heard.length,
              (count) => count === 1
            )
          )
          const deliveries = yield* listDeliveries(operator, endpoint.webhook.id)
          yield* Fiber.interrupt(running)
          return deliveries
        })
        const deliveries = await Effect.runPromise(
          program.pipe(Effect.provide(inMemoryRoster({ webhooks: { allowPrivate: true } })))
        )
        expect(deliveries.items.length).toBe(1)
      }
    )
  })
})

describe("Roster mounted under /roster as each framework's documentation mounts a handler", () => {
  it("Express 5, with express.json() before it: the parsed body is used, a refused one answered by Roster", async () => {
    const { app } = await load<{ app: RequestListener }>("express.ts")
    await served(app, async (base) => {
      await expectServedUnder(base, mounted)
      // Over express.json()'s own limit (100 kB): Roster's problem, not Express's page.
      const large = await fetch(`${base}/roster/api/v1/team/role/add`, {
        method: "POST",
        headers: { authorization: `Bearer ${masterKey}`, "content-type": "application/json" },
        body: JSON.stringify({ name: "x".repeat(200_000), roleKey: "large" })
      })
      expect(large.status).toBe(413)
      expect(large.headers.get("content-type")).toMatch(/^application\/problem\+json/u)
      expect((await large.json()).code).toBe("payload_too_large")
      const latin1 = await fetch(`${base}/roster/api/v1/team/role/add`, {
        method: "POST",
        headers: { authorization: `Bearer ${masterKey}`, "content-type": "application/json; charset=latin1" },
        body: JSON.stringify({ name: "Ops", roleKey: "latin1" })
      })
      expect(latin1.status).toBe(415)
      expect((await latin1.json()).code).toBe("unsupported_media_type")
      // Errors that are not a parser's stay the application's.
      const ownError = express()
      ownError.use("/boom", () => {
        throw new Error("the application's own")
      })
      ownError.use(toNodeHandler(web).parserErrors)
      ownError.use(
        (
          _error: unknown,
          _request: unknown,
          response: { status: (code: number) => { end: (text: string) => void } },
          _next: unknown
        ) => {
          response.status(599).end("the application's handler")
        }
      )
      await served(ownError, async (other) => {
        const answer = await fetch(`${other}/boom`)
        expect(answer.status).toBe(599)
      })
    })
  })

  it("Koa with Roster mounted before bodyParser(): Roster reads every body itself, a malformed one too", async () => {
    const app = new Koa()
    const roster = toNodeHandler(web, { basePath: "/roster" })
    app.use(
      mount("/roster", (context) => {
        context.respond = false
        roster(context.req, context.res)
      })
    )
    app.use(bodyParser())
    await served(app.callback(), (base) => expectServedUnder(base, mounted))
  })

  it("Koa, with bodyParser() before the mount and koa-mount (its path on Koa's context: basePath names it)", async () => {
    const { app } = await load<{ app: { callback: () => RequestListener } }>("koa.ts")
    // A body bodyParser() refuses is answered by Koa before any mount runs (the page says so).
    await served(app.callback(), (base) =>
      expectServedUnder(base, mounted, { malformedAnsweredBy: "framework" })
    )
  })

  it("Fastify 5, with @fastify/middie", async () => {
    const { app } = await load<{
      app: { listen: (options: object) => Promise<string>; server: Server; close: () => Promise<void> }
    }>("fastify.ts")
    await app.listen({ port: 0, host: "127.0.0.1" })
    try {
      await expectServedUnder(await listening(app.server), mounted)
    } finally {
      await app.close()
    }
  })

  it("NestJS with its Express adapter (its JSON body parser on), mounted in main.ts", async () => {
    const { app } = await load<{
      app: {
        listen: (port: number, host: string) => Promise<void>
        getHttpServer: () => Server
        close: () => Promise<void>
      }
    }>("nest.ts")
    await app.listen(0, "127.0.0.1")
    try {
      await expectServedUnder(await listening(app.getHttpServer()), mounted)
    } finally {
      await app.close()
    }
  })

  it("Hono's own handler, with toWebHandler (the fetch-style mount a Next.js route handler uses too)", async () => {
    const { app } = await load<{ app: { fetch: (request: Request) => Promise<Response> } }>("hono.ts")
    const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }) as Server
    try {
      await expectServedUnder(await listening(server), mounted)
    } finally {
      server.close()
    }
  })

  it("Hono's Node server, which hands on the whole path: basePath names it", async () => {
    const { app } = await load<{ app: { fetch: (request: Request) => Promise<Response> } }>("hono-node.ts")
    const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }) as Server
    try {
      await expectServedUnder(await listening(server), mounted)
    } finally {
      server.close()
    }
  })
})
