// What a single sign-on costs against a password login: in process, on the in-memory store, with
// the service's own password hashing; an OpenID provider (`oidc-provider`) on loopback, a browser's
// round trips kept by the tests' browser session. Roster's share of a sign-in is its three answers
// (the start, the callback, which asks the provider for the tokens, and the code's exchange); the
// whole round trip adds the provider's pages. Part of `npm run bench`; alone: `bun bench/sso-login.ts`.
import { makeWebHandler } from "../adapters/http/web-handler.ts"
import { servedInMemory } from "../app/roster-layer.ts"
import { browserSession, formOf, type Visited } from "../test/support/browser-session.ts"
import { startDns } from "../test/support/dns-server.ts"
import { startOidcIdp } from "../test/support/oidc-idp.ts"

export interface SsoLoginTiming {
  readonly signIns: number
  readonly passwordLoginMedianMs: number
  readonly rosterShareMedianMs: number
  readonly roundTripMedianMs: number
}

const base = "http://localhost:4455"
/** The product's page a sign-in returns to with its code. */
const product = "https://app.example.com"
const masterKey = "sso-login-bench-master-key-0123456789abcdef"
const password = "a long bench passphrase"
const median = (values: Array<number>) =>
  values.sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN

export const ssoLoginTiming = async (signIns = 30): Promise<SsoLoginTiming> => {
  const dns = await startDns()
  const idp = await startOidcIdp(`${base}/api/v1/sso/oidc/callback`)
  const web = await makeWebHandler(
    servedInMemory({
      masterKey,
      secretsKeys: ["sso-login-bench-secrets-key-0123456789abcdef"],
      sso: { servers: [dns.server], returnUrls: [product] },
      throttle: { maxFailuresPerAccount: 1e9, maxFailuresPerClient: 1e9 }
    }),
    { maxBodyBytes: 1 << 20, openLocal: false, publicOrigin: base }
  )
  /** Roster's time: every answer it gives the browser, summed per sign-in. */
  let rosterMs = 0
  const roster = async (request: Request) => {
    const started = performance.now()
    const response = await web.handler(request, { remoteAddress: "127.0.0.1" })
    const body = await response.arrayBuffer()
    rosterMs += performance.now() - started
    return new Response(body, { status: response.status, headers: response.headers })
  }
  const call = async (method: string, path: string, body: unknown) => {
    const response = await roster(
      new Request(`${base}${path}`, {
        method,
        headers: { authorization: `Bearer ${masterKey}`, "content-type": "application/json" },
        body: JSON.stringify(body)
      })
    )
    const answer = (await response.json()) as Record<string, unknown>
    if (response.status !== 200) throw new Error(`${method} ${path}: ${JSON.stringify(answer)}`)
    return answer
  }
  const staff = await call("POST", "/api/v1/team/role/add", { name: "Staff", roleKey: "staff" })
  await call("PATCH", "/api/v1/organization", { defaultRoleId: staff.id })
  await call("POST", "/api/v1/team/add", {
    username: "pat",
    email: "pat@example.com",
    password,
    activestatus: true,
    roleId: staff.id
  })
  const domain = await call("POST", "/api/v1/organization/domains", { domain: "bench.example" })
  dns.records.set(String(domain.txtName), [String(domain.txtValue)])
  await call("POST", `/api/v1/organization/domains/${domain.id}/verify`, {})
  await call("POST", "/api/v1/organization/sso", {
    kind: "oidc",
    issuer: idp.issuer,
    clientId: idp.clientId,
    clientSecret: idp.clientSecret
  })
  const passwordLogins: Array<number> = []
  const shares: Array<number> = []
  const roundTrips: Array<number> = []
  for (let i = 0; i < signIns; i++) {
    rosterMs = 0
    await call("POST", "/api/v1/auth/login", { username: "pat", password })
    passwordLogins.push(rosterMs)
    idp.accounts.set(`person-${i}`, { email: `person-${i}@bench.example` })
    const browser = browserSession({
      [base]: roster,
      [product]: async () => new Response("the product's page")
    })
    rosterMs = 0
    const started = performance.now()
    const returnTo = encodeURIComponent(`${product}/done`)
    let page: Visited = await browser.go(
      `${base}/api/v1/sso/start?email=person-${i}@bench.example&returnTo=${returnTo}`
    )
    for (let step = 0; step < 4 && page.url.startsWith(idp.issuer); step++) {
      const form = formOf(page.text, page.url)
      page = await browser.go(form.action, {
        form: { ...form.fields, login: `person-${i}`, password: "any" }
      })
    }
    const code = new URL(page.url).searchParams.get("code")
    if (code === null) throw new Error(`the sign-in ended at ${page.url}`)
    await call("POST", "/api/v1/sso/token", { code })
    roundTrips.push(performance.now() - started)
    shares.push(rosterMs)
  }
  await web.dispose()
  await idp.close()
  await dns.close()
  return {
    signIns,
    passwordLoginMedianMs: median(passwordLogins),
    rosterShareMedianMs: median(shares),
    roundTripMedianMs: median(roundTrips)
  }
}

export const printSsoLoginTiming = (timing: SsoLoginTiming) => {
  const row = (label: string, value: number) => `${label.padEnd(52)} ${value.toFixed(2).padStart(8)} ms`
  console.log(`\nSingle sign-on against a password login (${timing.signIns} of each, in process, median):`)
  console.log(row("password login (scrypt)", timing.passwordLoginMedianMs))
  console.log(row("single sign-on, Roster's three answers", timing.rosterShareMedianMs))
  console.log(row("single sign-on, the whole round trip with the IdP", timing.roundTripMedianMs))
}

if (import.meta.main) printSsoLoginTiming(await ssoLoginTiming(Number(process.env.SIGN_INS ?? 30)))
