import { describe, expect, it } from "vitest"
import { type Answer, expectProblem, startApi } from "../support/http.ts"

const limit = 3
const serviceFor = () =>
  startApi({
    throttle: { maxSignInStartsPerClient: limit },
    passkeys: { rpId: "localhost", origins: ["http://localhost:3000"] }
  })

const tooMany = (answer: Answer) => {
  const problem = expectProblem(answer, 429, "rate_limited")
  expect(Number(answer.headers.get("retry-after"))).toBeGreaterThan(0)
  expect(answer.headers.get("set-cookie"), "nothing started").toBeNull()
  expect(answer.headers.get("location")).toBeNull()
  return problem
}

/** `limit` calls from `client` answered as usual, then the next refused, while another address goes on. */
const throttled = async (call: (client: string) => Promise<Answer>, usual: number) => {
  for (let i = 0; i < limit; i++) expect((await call("203.0.113.5")).status).toBe(usual)
  tooMany(await call("203.0.113.5"))
  tooMany(await call("203.0.113.5"))
  expect((await call("198.51.100.20")).status, "another address is not held back").toBe(usual)
}

describe("sign-ins started by callers nobody knows yet, each writing a record", () => {
  it("passkey sign-in options: so many per client address, then 429 with Retry-After and no challenge", async () => {
    const api = await serviceFor()
    const challenges = new Set<string>()
    await throttled(async (client) => {
      const answer = await api.call("POST", "/api/v1/auth/passkeys/login/options", { body: {}, client })
      if (answer.status === 200) challenges.add(answer.body.challengeId)
      return answer
    }, 200)
    expect(challenges.size, "a challenge for each answered, none for the refused").toBe(limit + 1)
  })

  it("/sso/start: so many per client address, then 429 with Retry-After instead of a redirect", async () => {
    const api = await serviceFor()
    await throttled((client) => api.call("GET", "/api/v1/sso/start?organization=nobody", { client }), 302)
  })

  it("the SSO code exchange: so many per client address, right or wrong, then 429 with Retry-After", async () => {
    const api = await serviceFor()
    await throttled(
      (client) => api.call("POST", "/api/v1/sso/token", { body: { code: "rso_not-a-code" }, client }),
      403
    )
    // Each kind is counted apart: the exchanges spent do not hold back a sign-in's start.
    expect(
      (await api.call("POST", "/api/v1/auth/passkeys/login/options", { body: {}, client: "203.0.113.5" }))
        .status
    ).toBe(200)
  })
})
