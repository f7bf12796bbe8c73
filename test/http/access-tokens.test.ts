import { Effect, Redacted } from "effect"
import { createLocalJWKSet, decodeProtectedHeader, type JSONWebKeySet, jwtVerify } from "jose"
import { describe, expect, it } from "vitest"
import { secretBoxLayer } from "../../adapters/crypto/index.ts"
import { createRosterClient } from "../../adapters/http/client.ts"
import { SecretBox, type SigningKey, SigningKeyStore } from "../../core/index.ts"
import {
  changedStore,
  expectProblem,
  masterKey,
  memberWithPermissions,
  startApi,
  type TestApi
} from "../support/http.ts"

const secretsKey = "an HTTP test secrets key, 32 characters or more"
const tokenPath = "/api/v1/auth/token"
const jwksPath = "/.well-known/jwks.json"

/** A service with access tokens on, remembering each signing key it keeps (to look for its private part). */
const startWithTokens = async (options: Parameters<typeof startApi>[0] = {}) => {
  const kept: Array<SigningKey> = []
  const api = await startApi({
    secretsKeys: [secretsKey],
    override: changedStore(SigningKeyStore, (store) => ({
      ...store,
      add: (key) => Effect.tap(store.add(key), (added) => Effect.sync(() => added && kept.push(key)))
    })),
    ...options
  })
  /** The private parts (`d`) of every key kept so far, opened as only Roster could. */
  const privateParts = () =>
    Effect.runPromise(
      Effect.forEach(kept, (key) =>
        Effect.map(
          SecretBox.use((box) => box.open(key.privateKey)),
          (opened) => (JSON.parse(Redacted.value(opened)) as { readonly d: string }).d
        )
      ).pipe(Effect.provide(secretBoxLayer([Redacted.make(secretsKey)])), Effect.orDie)
    )
  return { api, privateParts }
}

const tokenFor = async (api: TestApi, token: string, headers: Record<string, string> = {}) => {
  const answer = await api.call("POST", tokenPath, { token, headers })
  expect(answer.status, answer.text).toBe(200)
  return answer
}

const verify = async (api: TestApi, token: string, issuer = "http://localhost") => {
  const keys = await api.call("GET", jwksPath)
  return jwtVerify(token, createLocalJWKSet(keys.body as JSONWebKeySet), {
    issuer,
    audience: "roster",
    typ: "at+jwt"
  })
}

describe("POST /api/v1/auth/token", () => {
  it("answers a token jose verifies against the served key set, with every claim", async () => {
    const { api, privateParts } = await startWithTokens()
    const ada = await memberWithPermissions(api, "ada", [1, 5])
    const answer = await tokenFor(api, ada.token)
    expect(Object.keys(answer.body).sort()).toEqual(["accessToken", "expiresIn", "tokenType"])
    expect(answer.body).toMatchObject({ tokenType: "Bearer", expiresIn: 300 })
    expect(answer.headers.get("cache-control")).toBe("no-store")
    const { payload, protectedHeader } = await verify(api, answer.body.accessToken)
    expect(protectedHeader).toMatchObject({ alg: "EdDSA", typ: "at+jwt" })
    const me = await api.call("GET", "/api/v1/auth/me", { token: ada.token })
    const sessions = await api.call("GET", "/api/v1/auth/sessions", { token: ada.token })
    expect(payload).toMatchObject({
      iss: "http://localhost",
      aud: "roster",
      sub: ada.member.id,
      client_id: "roster",
      principal: "member",
      org_id: "default",
      org_slug: "default",
      role: ada.role.roleKey,
      permissions: me.body.permissions,
      sid: sessions.body.find((session: { current: boolean }) => session.current).id,
      amr: ["pwd"]
    })
    expect(me.body.permissions).toEqual(["team.read", "billing.read"])
    expect(payload.exp).toBe((payload.iat ?? 0) + 300)
    expect(payload.jti).toMatch(/^at_/)
    const jwks = await api.call("GET", jwksPath)
    expect(jwks.body.keys.map((key: { kid: string }) => key.kid)).toContain(protectedHeader.kid)
    const secrets = await privateParts()
    expect(secrets).toHaveLength(1)
    const seen = [answer.text, jwks.text, JSON.stringify(api.logs)]
    seen.push((await api.call("GET", "/api/v1/audit", { token: masterKey })).text)
    for (const text of seen) for (const secret of secrets) expect(text.includes(secret)).toBe(false)
  })

  it("answers an API key a token naming the key, with its permissions", async () => {
    const { api } = await startWithTokens()
    const owner = await memberWithPermissions(api, "owner", [1, 10])
    const made = await api.call("POST", "/api/v1/organization/api-keys", {
      token: owner.token,
      body: { name: "deploys", permissions: ["team.read"] }
    })
    expect(made.status, made.text).toBe(200)
    const { payload } = await verify(api, (await tokenFor(api, made.body.key)).body.accessToken)
    expect(payload).toMatchObject({
      sub: made.body.id,
      client_id: made.body.id,
      principal: "api_key",
      permissions: ["team.read"],
      org_id: "default"
    })
    for (const claim of ["role", "sid", "amr", "auth_time"]) expect(payload).not.toHaveProperty(claim)
  })

  it("is refused to the master key (403), the open mode (403) and an access token (401)", async () => {
    const { api } = await startWithTokens()
    expectProblem(await api.call("POST", tokenPath, { token: masterKey }), 403, "forbidden")
    const ada = await memberWithPermissions(api, "ada", [1])
    const { accessToken } = (await tokenFor(api, ada.token)).body
    expectProblem(await api.call("GET", "/api/v1/auth/me", { token: accessToken }), 401, "unauthorized")
    expectProblem(await api.call("POST", tokenPath, { token: accessToken }), 401, "unauthorized")
    expectProblem(await api.call("GET", "/api/v1/team/roles", { token: accessToken }), 401, "unauthorized")
    const open = await startApi({ mode: "open", secretsKeys: [secretsKey] })
    expectProblem(await open.call("POST", tokenPath), 403, "forbidden")
  })

  it("is 409 secrets_key_required in secure mode without a secrets key", async () => {
    const api = await startApi()
    const ada = await memberWithPermissions(api, "ada", [1])
    expectProblem(await api.call("POST", tokenPath, { token: ada.token }), 409, "secrets_key_required")
    expect((await api.call("GET", jwksPath)).body).toEqual({ keys: [] })
  })

  it("is 403 mfa_required for a member owing a second factor", async () => {
    const { api } = await startWithTokens()
    const ada = await memberWithPermissions(api, "ada", [1])
    const policy = await api.call("PATCH", "/api/v1/organization", {
      token: masterKey,
      body: { requireMfa: true }
    })
    expect(policy.status, policy.text).toBe(200)
    const login = await api.call("POST", "/api/v1/auth/login", {
      body: { username: "ada", password: "correct horse battery staple" }
    })
    expect(login.status, login.text).toBe(200)
    expectProblem(await api.call("POST", tokenPath, { token: login.body.token }), 403, "mfa_required")
    expect((await api.call("GET", "/api/v1/auth/me", { token: ada.token })).status).toBe(200)
  })

  it("ignores Idempotency-Key: each request is a new token", async () => {
    const { api } = await startWithTokens()
    const ada = await memberWithPermissions(api, "ada", [1])
    const first = await tokenFor(api, ada.token, { "idempotency-key": "same" })
    const second = await tokenFor(api, ada.token, { "idempotency-key": "same" })
    expect(second.headers.get("idempotent-replayed")).toBeNull()
    const jtis = await Promise.all(
      [first, second].map(async (answer) => (await verify(api, answer.body.accessToken)).payload.jti)
    )
    expect(jtis[0]).not.toBe(jtis[1])
  })

  it("stops at once for a logout, a deactivation; a role's new permission is in the next token", async () => {
    const { api } = await startWithTokens()
    const ada = await memberWithPermissions(api, "ada", [1])
    await tokenFor(api, ada.token)
    const grant = await api.call("POST", "/api/v1/team/role-permission-detail", {
      token: masterKey,
      body: { roleId: ada.role.id, permissionId: 5 }
    })
    expect(grant.status, grant.text).toBe(200)
    const { payload } = await verify(api, (await tokenFor(api, ada.token)).body.accessToken)
    expect(payload.permissions).toEqual(["team.read", "billing.read"])
    expect((await api.call("POST", "/api/v1/auth/logout", { token: ada.token })).status).toBe(200)
    expectProblem(await api.call("POST", tokenPath, { token: ada.token }), 401, "unauthorized")
    const bob = await memberWithPermissions(api, "bob", [1])
    const off = await api.call("PATCH", `/api/v1/team/members/${bob.member.id}`, {
      token: masterKey,
      body: { activestatus: false }
    })
    expect(off.status, off.text).toBe(200)
    expectProblem(await api.call("POST", tokenPath, { token: bob.token }), 401, "unauthorized")
  })

  it("is for the session's organisation only: another named is 403", async () => {
    const { api } = await startWithTokens()
    const acme = await api.call("POST", "/api/v1/organizations", {
      token: masterKey,
      body: { name: "Acme", slug: "acme" }
    })
    expect(acme.status, acme.text).toBe(200)
    const ada = await memberWithPermissions(api, "ada", [1])
    expectProblem(
      await api.call("POST", tokenPath, { token: ada.token, headers: { "roster-organization": "acme" } }),
      403,
      "forbidden"
    )
  })
})

describe("the key set and the issuer", () => {
  it("serve public keys only, cacheable for five minutes, to any origin", async () => {
    const { api } = await startWithTokens()
    const ada = await memberWithPermissions(api, "ada", [1])
    const { accessToken } = (await tokenFor(api, ada.token)).body
    const jwks = await api.call("GET", jwksPath, { headers: { origin: "https://product.example" } })
    expect(jwks.status).toBe(200)
    expect(jwks.headers.get("cache-control")).toBe("public, max-age=300")
    expect(jwks.headers.get("access-control-allow-origin")).toBe("*")
    const [key] = jwks.body.keys
    expect(Object.keys(key).sort()).toEqual(["alg", "crv", "kid", "kty", "use", "x"])
    expect(key).toMatchObject({ kty: "OKP", crv: "Ed25519", alg: "EdDSA", use: "sig" })
    expect(key.kid).toBe(decodeProtectedHeader(accessToken).kid)
    const configuration = await api.call("GET", "/.well-known/openid-configuration")
    expect(configuration.body).toEqual({
      issuer: "http://localhost",
      jwks_uri: `http://localhost${jwksPath}`
    })
    expect(configuration.headers.get("cache-control")).toBe("public, max-age=300")
  })

  it("name ROSTER_PUBLIC_URL as the issuer, its path kept, without a trailing slash", async () => {
    const { api } = await startWithTokens({ publicUrl: "https://app.example.com/roster" })
    const ada = await memberWithPermissions(api, "ada", [1])
    const { accessToken } = (await tokenFor(api, ada.token)).body
    const { payload } = await verify(api, accessToken, "https://app.example.com/roster")
    expect(payload.iss).toBe("https://app.example.com/roster")
    expect((await api.call("GET", "/.well-known/openid-configuration")).body).toEqual({
      issuer: "https://app.example.com/roster",
      jwks_uri: "https://app.example.com/roster/.well-known/jwks.json"
    })
  })

  it("name the request's origin and mount path when Roster is mounted under one", async () => {
    const { api } = await startWithTokens()
    const ada = await memberWithPermissions(api, "ada", [1])
    const underMount = (path: string, init: RequestInit = {}) =>
      api.web.handler(new Request(`https://tenant.example${path}`, init), {
        remoteAddress: "192.0.2.1",
        mountPath: "/roster"
      })
    const made = await underMount(tokenPath, {
      method: "POST",
      headers: { authorization: `Bearer ${ada.token}` }
    })
    const { accessToken } = (await made.json()) as { readonly accessToken: string }
    const keys = (await (await underMount(jwksPath)).json()) as JSONWebKeySet
    const { payload } = await jwtVerify(accessToken, createLocalJWKSet(keys), {
      issuer: "https://tenant.example/roster"
    })
    expect(payload.iss).toBe("https://tenant.example/roster")
    expect(await (await underMount("/.well-known/openid-configuration")).json()).toEqual({
      issuer: "https://tenant.example/roster",
      jwks_uri: "https://tenant.example/roster/.well-known/jwks.json"
    })
  })
})

describe("what a product holding tokens hears", () => {
  it("the catalog holds session.revoked and api_key.updated with their schemas; a logout is recorded", async () => {
    const { api } = await startWithTokens()
    const catalog = await api.call("GET", "/api/v1/event-types", { token: masterKey })
    const revoked = catalog.body.find((each: { type: string }) => each.type === "session.revoked")
    expect(revoked.schema).toMatchObject({
      type: "object",
      required: expect.arrayContaining(["organizationId", "accountId"]),
      properties: { sid: { type: "string" } }
    })
    expect(revoked.permission).toBe("team.read")
    const updated = catalog.body.find((each: { type: string }) => each.type === "api_key.updated")
    expect(updated.schema).toMatchObject({ required: expect.arrayContaining(["organizationId", "api_key"]) })
    const ada = await memberWithPermissions(api, "ada", [1])
    const [session] = (await api.call("GET", "/api/v1/auth/sessions", { token: ada.token })).body
    expect((await api.call("POST", "/api/v1/auth/logout", { token: ada.token })).body).toEqual({
      revoked: true
    })
    const audit = await api.call("GET", "/api/v1/audit/events?action=session.revoked", { token: masterKey })
    expect(audit.body).toHaveLength(1)
    expect(audit.body[0]).toMatchObject({
      actor: { kind: "member", id: ada.member.id },
      target: { type: "session", id: session.id }
    })
  })
})

describe("the Promise client", () => {
  it("asks for an access token, and reads the key set", async () => {
    const { api } = await startWithTokens()
    const ada = await memberWithPermissions(api, "ada", [1])
    const client = createRosterClient({
      baseUrl: "http://localhost",
      token: ada.token,
      fetch: (input, init) => api.web.handler(new Request(input, init), { remoteAddress: "192.0.2.1" })
    })
    const made = await client.auth.accessToken()
    expect(made).toMatchObject({ tokenType: "Bearer", expiresIn: 300 })
    const { payload } = await verify(api, String(made.accessToken))
    expect(payload.sub).toBe(ada.member.id)
    const keys = await client.wellKnown.jwks()
    expect(keys.keys.map((key) => key.kid)).toEqual([decodeProtectedHeader(String(made.accessToken)).kid])
  })
})
