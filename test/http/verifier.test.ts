import { exportJWK, generateKeyPair, SignJWT } from "jose"
import { describe, expect, it } from "vitest"
import { authorizeRequest, createRosterVerifier, type RosterClaims } from "../../adapters/verify/index.ts"
import { memberWithPermissions, startApi } from "../support/http.ts"

const issuer = "http://localhost"

/** Roster with tokens on, a member holding team.read, and a verifier reading the key set from it (counting reads). */
const world = async () => {
  const api = await startApi({ secretsKeys: ["the verifier tests' secrets key, long enough"] })
  const ada = await memberWithPermissions(api, "ada", [1])
  const made = await api.call("POST", "/api/v1/auth/token", { token: ada.token })
  const token = made.body.accessToken as string
  const jwks = (await api.call("GET", "/.well-known/jwks.json")).body as {
    keys: Array<Record<string, string>>
  }
  const reads: Array<string> = []
  const servedBy =
    (keySet: () => unknown, maxAge = 300) =>
    async (url: string) => {
      reads.push(url)
      return new Response(JSON.stringify(keySet()), {
        headers: { "cache-control": `public, max-age=${maxAge}` }
      })
    }
  const verifier = createRosterVerifier({ issuer, fetch: servedBy(() => jwks) })
  const [jwk] = jwks.keys
  return { api, ada, token, jwks, jwk, reads, servedBy, verifier }
}

const parts = (token: string) => token.split(".") as [string, string, string]
const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url")
const decode = (part: string) =>
  JSON.parse(Buffer.from(part, "base64url").toString()) as Record<string, unknown>
const now = () => Math.floor(Date.now() / 1000)

/** A token signed by a key of our own, named in the header as `kid` says. */
const forged = async (claims: Record<string, unknown>, header: Record<string, unknown>) => {
  const { privateKey } = await generateKeyPair("EdDSA")
  return new SignJWT(claims).setProtectedHeader({ alg: "EdDSA", ...header }).sign(privateKey)
}

describe("the verifier (roster-service/verify)", () => {
  it("accepts Roster's token, with its claims, and can() only in its own organisation", async () => {
    const { verifier, token, ada } = await world()
    const claims = await verifier.verify(token)
    expect(claims).toMatchObject({ sub: ada.member.id, org_id: "default", permissions: ["team.read"] })
    expect(verifier.can(claims, "team.read", "default")).toBe(true)
    expect(verifier.can(claims, "team.read", "any")).toBe(true)
    expect(verifier.can(claims, "team.read", "acme"), "another organisation").toBe(false)
    expect(verifier.can(claims, "billing.read", "default"), "a permission not held").toBe(false)
    expect(() => verifier.can(claims, "team.read", undefined as unknown as string)).toThrow(TypeError)
  })

  it("accepts typ application/at+jwt, and refuses a wrong or missing typ", async () => {
    const { token } = await world()
    const [, payload] = parts(token)
    const claims = decode(payload)
    const { privateKey, publicKey } = await generateKeyPair("EdDSA")
    const jwk = { ...(await exportJWK(publicKey)), kid: "own", alg: "EdDSA", use: "sig" }
    const own = createRosterVerifier({
      issuer,
      fetch: async () => new Response(JSON.stringify({ keys: [jwk] }))
    })
    const signed = (typ?: string) =>
      new SignJWT(claims)
        .setProtectedHeader({ alg: "EdDSA", kid: "own", ...(typ === undefined ? {} : { typ }) })
        .sign(privateKey)
    await expect(own.verify(await signed("application/at+jwt"))).resolves.toMatchObject({ sub: claims.sub })
    await expect(own.verify(await signed("JWT"))).rejects.toThrow()
    await expect(own.verify(await signed())).rejects.toThrow()
  })

  it("refuses alg none, an HMAC token keyed with the public key, a key not in the set and an embedded jwk", async () => {
    const { verifier, token, jwk } = await world()
    const [header, payload, signature] = parts(token)
    const none = `${encode({ ...decode(header), alg: "none" })}.${payload}.`
    await expect(verifier.verify(none)).rejects.toThrow()
    const hmacKey = new TextEncoder().encode(JSON.stringify(jwk))
    const hmac = await new SignJWT(decode(payload))
      .setProtectedHeader({ ...decode(header), alg: "HS256" })
      .sign(hmacKey)
    await expect(verifier.verify(hmac)).rejects.toThrow()
    await expect(
      verifier.verify(await forged(decode(payload), { typ: "at+jwt", kid: "unknown" }))
    ).rejects.toThrow()
    const { privateKey, publicKey } = await generateKeyPair("EdDSA")
    const embedded = await new SignJWT(decode(payload))
      .setProtectedHeader({ alg: "EdDSA", typ: "at+jwt", jwk: await exportJWK(publicKey) })
      .sign(privateKey)
    await expect(verifier.verify(embedded)).rejects.toThrow()
    const theirsUnderOurKid = await forged(decode(payload), { typ: "at+jwt", kid: jwk?.kid })
    await expect(
      verifier.verify(theirsUnderOurKid),
      "signed by another key under Roster's kid"
    ).rejects.toThrow()
    void signature
  })

  it("refuses a wrong iss, aud, no exp, an expired token, nbf or iat ahead beyond 30 s, and a tampered one", async () => {
    const { token } = await world()
    const [, payload] = parts(token)
    const claims = decode(payload)
    const { privateKey, publicKey } = await generateKeyPair("EdDSA")
    const jwk = { ...(await exportJWK(publicKey)), kid: "own", alg: "EdDSA", use: "sig" }
    const own = createRosterVerifier({
      issuer,
      fetch: async () => new Response(JSON.stringify({ keys: [jwk] }))
    })
    const signed = (over: Record<string, unknown>, drop: ReadonlyArray<string> = []) => {
      const body: Record<string, unknown> = { ...claims, iat: now(), exp: now() + 300, ...over }
      for (const name of drop) delete body[name]
      return new SignJWT(body)
        .setProtectedHeader({ alg: "EdDSA", typ: "at+jwt", kid: "own" })
        .sign(privateKey)
    }
    await expect(own.verify(await signed({}))).resolves.toBeDefined()
    await expect(own.verify(await signed({ exp: now() - 20 })), "within the skew").resolves.toBeDefined()
    for (const [why, over, drop] of [
      ["another issuer", { iss: "https://elsewhere.example" }, []],
      ["another audience", { aud: "billing" }, []],
      ["no exp", {}, ["exp"]],
      ["expired beyond the skew", { exp: now() - 31 }, []],
      ["nbf ahead beyond the skew", { nbf: now() + 60 }, []],
      ["iat ahead beyond the skew", { iat: now() + 60 }, []]
    ] as const) {
      await expect(own.verify(await signed(over, drop)), why).rejects.toThrow()
    }
    const good = await signed({})
    const [h, p, s] = parts(good)
    const tampered = `${h}.${encode({ ...decode(p), permissions: ["team.read", "admin.accounts.write"] })}.${s}`
    await expect(own.verify(tampered)).rejects.toThrow()
  })

  it("keeps the key set no longer than its max-age, and fetches it again for an unknown kid at most once a minute", async () => {
    const { jwks, token, servedBy, reads } = await world()
    let clock = Date.now()
    const realNow = Date.now
    Date.now = () => clock
    try {
      const verifier = createRosterVerifier({ issuer, fetch: servedBy(() => jwks, 120) })
      await verifier.verify(token)
      await verifier.verify(token)
      expect(reads).toHaveLength(1)
      clock += 121_000
      await verifier.verify(token).catch(() => undefined)
      expect(reads, "past its max-age the set is read again").toHaveLength(2)
      const [, payload] = parts(token)
      const unknown = await forged(decode(payload), { typ: "at+jwt", kid: "new-key" })
      await expect(verifier.verify(unknown)).rejects.toThrow()
      expect(reads, "not again within the minute").toHaveLength(2)
      clock += 61_000
      await expect(verifier.verify(unknown)).rejects.toThrow()
      expect(reads, "again after a minute, for a kid it does not know").toHaveLength(3)
    } finally {
      Date.now = realNow
    }
  })

  it("authorizeRequest answers the claims, or 401 and 403 problem details", async () => {
    const { verifier, token } = await world()
    const about = (organization: string) => ({ organization: () => organization })
    const request = (authorization?: string) =>
      new Request(
        "https://product.example/x",
        authorization === undefined ? {} : { headers: { authorization } }
      )
    const allowed = await authorizeRequest(
      verifier,
      "team.read",
      request(`Bearer ${token}`),
      about("default")
    )
    expect((allowed as RosterClaims).org_id).toBe("default")
    const refusals = [
      [await authorizeRequest(verifier, "team.read", request(), about("default")), 401, "unauthorized"],
      [
        await authorizeRequest(verifier, "team.read", request("Bearer nonsense"), about("default")),
        401,
        "unauthorized"
      ],
      [
        await authorizeRequest(verifier, "team.read", request(`Bearer ${token}`), about("acme")),
        403,
        "forbidden"
      ],
      [
        await authorizeRequest(verifier, "billing.read", request(`Bearer ${token}`), about("any")),
        403,
        "forbidden"
      ]
    ] as const
    for (const [answer, status, code] of refusals) {
      expect(answer).toBeInstanceOf(Response)
      const response = answer as Response
      expect(response.status).toBe(status)
      expect(response.headers.get("content-type")).toBe("application/problem+json")
      expect(await response.json()).toMatchObject({ status, code })
    }
  })
})
