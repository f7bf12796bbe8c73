import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { serve } from "@hono/node-server"
import { RESPONSE_ALREADY_SENT } from "@hono/node-server/utils/response"
import express from "express"
import Fastify from "fastify"
import { Hono } from "hono"
import Koa from "koa"
import mount from "koa-mount"
import { afterAll, beforeAll, describe, it } from "vitest"
import {
  builtConsoleDirectory,
  makeWebHandler,
  toNodeHandler,
  toWebHandler,
  type WebHandler
} from "../../adapters/http/index.ts"
import { servedInMemory } from "../../app/roster-layer.ts"
import { expectServedUnder } from "../support/mounted.ts"
import { samlIdp, type TestSamlIdp } from "../support/saml-idp.ts"

const masterKey = "frameworks-master-key-long-enough-0123456789"
let web: WebHandler
let idp: TestSamlIdp

beforeAll(async () => {
  idp = await samlIdp()
  const consoleDirectory = builtConsoleDirectory()
  if (consoleDirectory === undefined) throw new Error("the console is built by npm install (npm run build)")
  web = await makeWebHandler(
    servedInMemory({ masterKey, secretsKeys: ["frameworks-secrets-key-long-enough-0123456789"] }),
    {
      maxBodyBytes: 65536,
      openLocal: false,
      corsOrigins: [],
      consoleDirectory
    }
  )
})
afterAll(() => web?.dispose())

const listening = async (server: Server) => {
  if (!server.listening) await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

describe("Roster mounted under /roster as each framework's documentation mounts a handler", () => {
  it("Express 5, with express.json() before it: the parsed body is used", async () => {
    const app = express()
    app.use(express.json())
    app.use("/roster", toNodeHandler(web))
    const server = createServer(app)
    try {
      await expectServedUnder(await listening(server), { masterKey, idp })
    } finally {
      server.close()
    }
  })

  it("Koa, with koa-mount (which keeps the mount's path on its context, not the request: basePath names it)", async () => {
    const app = new Koa()
    const handle = toNodeHandler(web, { basePath: "/roster" })
    app.use(
      mount("/roster", (context) => {
        context.respond = false
        handle(context.req, context.res)
      })
    )
    const server = createServer(app.callback())
    try {
      await expectServedUnder(await listening(server), { masterKey, idp })
    } finally {
      server.close()
    }
  })

  it("Fastify 5, with @fastify/middie", async () => {
    const app = Fastify()
    await app.register((await import("@fastify/middie")).default)
    app.use("/roster", toNodeHandler(web))
    await app.listen({ port: 0, host: "127.0.0.1" })
    try {
      await expectServedUnder(await listening(app.server), { masterKey, idp })
    } finally {
      await app.close()
    }
  })

  it("NestJS with its Express adapter (its JSON body parser on), mounted in main.ts", async () => {
    await import("reflect-metadata")
    const { Module } = await import("@nestjs/common")
    const { NestFactory } = await import("@nestjs/core")
    class AppModule {}
    Module({})(AppModule)
    const app = await NestFactory.create(AppModule, { logger: false })
    app.use("/roster", toNodeHandler(web))
    await app.listen(0, "127.0.0.1")
    try {
      await expectServedUnder(await listening(app.getHttpServer()), { masterKey, idp })
    } finally {
      await app.close()
    }
  })

  it("Hono's own handler, with toWebHandler (the fetch-style mount a Next.js route handler uses too)", async () => {
    const app = new Hono()
    const roster = toWebHandler(web, { basePath: "/roster" })
    app.all("/roster", (context) => roster(context.req.raw))
    app.all("/roster/*", (context) => roster(context.req.raw))
    const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }) as Server
    try {
      await expectServedUnder(await listening(server), { masterKey, idp })
    } finally {
      server.close()
    }
  })

  it("Hono's Node server, which hands on the whole path: basePath names it", async () => {
    const app = new Hono()
    const handle = toNodeHandler(web, { basePath: "/roster" })
    app.all("/roster/*", (context) => {
      const { incoming, outgoing } = context.env as { incoming: never; outgoing: never }
      handle(incoming, outgoing)
      return RESPONSE_ALREADY_SENT
    })
    const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }) as Server
    try {
      await expectServedUnder(await listening(server), { masterKey, idp })
    } finally {
      server.close()
    }
  })
})
