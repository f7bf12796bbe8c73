import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { serve } from "@hono/node-server"
import { RESPONSE_ALREADY_SENT } from "@hono/node-server/utils/response"
import express from "express"
import Fastify from "fastify"
import { Hono } from "hono"
import Koa from "koa"
import mount from "koa-mount"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createRosterClient } from "../../adapters/http/client.ts"
import {
  builtConsoleDirectory,
  makeWebHandler,
  toNodeHandler,
  toWebHandler,
  type WebHandler
} from "../../adapters/http/index.ts"
import { servedInMemory } from "../../app/roster-layer.ts"
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

/**
 * What every mount must do under `/roster`: a JSON POST (whatever parsed it first), a list's `Link`
 * and the console's redirect keeping the prefix, the console and its assets, problems as problems,
 * and the Promise client given the prefix in its base URL.
 */
const expectServedUnder = async (base: string) => {
  const roster = `${base}/roster`
  const auth = { authorization: `Bearer ${masterKey}`, "content-type": "application/json" }
  const key = `k${Math.random().toString(36).slice(2, 10)}`
  const added = await fetch(`${roster}/api/v1/team/role/add`, {
    method: "POST",
    headers: auth,
    body: JSON.stringify({ name: "Ops", roleKey: key })
  })
  expect(added.status, await added.clone().text()).toBe(200)
  expect((await added.json()).roleKey).toBe(key)
  await fetch(`${roster}/api/v1/team/role/add`, {
    method: "POST",
    headers: auth,
    body: JSON.stringify({ name: "Ops 2", roleKey: `${key}-2` })
  })
  const page = await fetch(`${roster}/api/v1/team/roles?limit=1`, { headers: auth })
  expect(page.headers.get("link")).toMatch(/^<\/roster\/api\/v1\/team\/roles\?/u)
  const refused = await fetch(`${roster}/api/v1/team/roles`)
  expect(refused.status).toBe(401)
  expect(refused.headers.get("content-type")).toMatch(/^application\/problem\+json/u)
  const toConsole = await fetch(`${roster}/console`, { redirect: "manual" })
  expect(toConsole.headers.get("location")).toBe("/roster/console/")
  const consolePage = await fetch(`${roster}/console/`)
  const script = /src="(assets[^"]+)"/u.exec(await consolePage.text())?.[1]
  expect((await fetch(`${roster}/console/${script}`)).status).toBe(200)
  const client = createRosterClient({ baseUrl: roster, token: masterKey })
  expect((await client.team.listPermissions()).length).toBeGreaterThan(10)
  await expectAbsoluteLinksUnder(roster, auth)
}

/**
 * The links Roster writes out whole keep the prefix too: the OpenAPI document's server and the
 * reference page's calls, a SAML connection's URLs and the sign-in's redirects and cookie, SCIM's
 * locations.
 */
const expectAbsoluteLinksUnder = async (roster: string, auth: Record<string, string>) => {
  const document = await (await fetch(`${roster}/api/v1/openapi.json`)).json()
  expect(document.servers).toEqual([{ url: "/roster", description: "This server" }])
  expect(await (await fetch(`${roster}/api/v1/docs`)).text()).toMatch(/"servers":\[\{"url":"\/roster"/u)
  const created = await fetch(`${roster}/api/v1/organization/sso`, {
    method: "POST",
    headers: auth,
    body: JSON.stringify({
      kind: "saml",
      idpEntityId: idp.entityId,
      idpSsoUrl: idp.ssoUrl,
      idpCertificate: idp.certificate
    })
  })
  const connection = await created.json()
  expect(created.status, JSON.stringify(connection)).toBe(200)
  expect(connection.acsUrl).toBe(`${roster}/api/v1/sso/saml/acs`)
  const start = await fetch(`${roster}/api/v1/sso/start?connection=${connection.id}`, { redirect: "manual" })
  expect(start.status).toBe(302)
  expect(idp.requestOf(start.headers.get("location") ?? "").xml).toContain(
    `AssertionConsumerServiceURL="${roster}/api/v1/sso/saml/acs"`
  )
  expect(start.headers.get("set-cookie")).toMatch(/; Path=\/roster\/api\/v1\/sso;/u)
  const unknown = await fetch(`${roster}/api/v1/sso/start?organization=nobody-here`, { redirect: "manual" })
  expect(unknown.headers.get("location")).toMatch(new RegExp(`^${roster}/console/\\?error=`, "u"))
  const token = await fetch(`${roster}/api/v1/organization/scim-tokens`, {
    method: "POST",
    headers: auth,
    body: JSON.stringify({ name: "Directory" })
  })
  const scim = await fetch(`${roster}/scim/v2/ServiceProviderConfig`, {
    headers: { authorization: `Bearer ${(await token.json()).token}` }
  })
  expect((await scim.json()).meta.location).toBe(`${roster}/scim/v2/ServiceProviderConfig`)
}

describe("Roster mounted under /roster as each framework's documentation mounts a handler", () => {
  it("Express 5, with express.json() before it: the parsed body is used", async () => {
    const app = express()
    app.use(express.json())
    app.use("/roster", toNodeHandler(web))
    const server = createServer(app)
    try {
      await expectServedUnder(await listening(server))
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
      await expectServedUnder(await listening(server))
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
      await expectServedUnder(await listening(app.server))
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
      await expectServedUnder(await listening(app.getHttpServer()))
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
      await expectServedUnder(await listening(server))
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
      await expectServedUnder(await listening(server))
    } finally {
      server.close()
    }
  })
})
