// What a second factor adds to signing in: in process, with the service's own password hashing,
// logins of accounts without TOTP (a session) and with it (a challenge), and challenges completed
// with a recovery code, each timed from the call to its answer's last byte. Part of `npm run
// bench`; alone: `bun bench/mfa-login.ts`.
import { Layer } from "effect"
import { generateSync } from "otplib"
import { makeWebHandler } from "../adapters/http/web-handler.ts"
import { servedInMemory } from "../app/roster-layer.ts"

export interface MfaLoginTiming {
  readonly logins: number
  readonly withoutMfaMedianMs: number
  readonly withMfaMedianMs: number
  readonly verifyMedianMs: number
}

const master = "mfa-login-bench-master-key-0123456789abcdef"
const password = "a long bench passphrase"
const median = (values: Array<number>) =>
  values.sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN

export const mfaLoginTiming = async (logins = 30): Promise<MfaLoginTiming> => {
  const web = await makeWebHandler(
    Layer.mergeAll(
      servedInMemory({
        masterKey: master,
        secretsKeys: ["mfa-login-bench-secrets-key-0123456789abcdef"],
        throttle: { maxFailuresPerAccount: 1e9, maxFailuresPerClient: 1e9 }
      })
    ),
    { maxBodyBytes: 1 << 20, openLocal: false }
  )
  const call = async (method: string, path: string, body?: unknown, token?: string) => {
    const started = performance.now()
    const response = await web.handler(
      new Request(`http://127.0.0.1:3000${path}`, {
        method,
        headers: {
          "content-type": "*/*",
          ...(token === undefined ? {} : { authorization: `Bearer ${token}` })
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) })
      }),
      { remoteAddress: "127.0.0.1" }
    )
    const answer = (await response.json()) as Record<string, unknown>
    if (response.status !== 200)
      throw new Error(`${method} ${path} answered ${response.status}: ${JSON.stringify(answer)}`)
    return { answer, ms: performance.now() - started }
  }
  const role = (await call("POST", "/api/v1/team/role/add", { name: "Staff", roleKey: "staff" }, master))
    .answer
  const add = (username: string) =>
    call(
      "POST",
      "/api/v1/team/add",
      { username, email: `${username}@example.com`, password, activestatus: true, roleId: role.id },
      master
    )
  const logIn = (username: string) => call("POST", "/api/v1/auth/login", { username, password })
  await add("plain")
  const codes: Array<{ username: string; code: string }> = []
  for (let i = 0; i < Math.ceil(logins / 10); i++) {
    const username = `guarded${i}`
    await add(username)
    const token = String((await logIn(username)).answer.token)
    const { secret } = (await call("POST", "/api/v1/auth/mfa/totp", { password }, token)).answer
    const confirmed = await call(
      "POST",
      "/api/v1/auth/mfa/totp/confirm",
      { code: generateSync({ secret: String(secret) }) },
      token
    )
    for (const code of confirmed.answer.recoveryCodes as Array<string>) codes.push({ username, code })
  }
  const without: Array<number> = []
  const withMfa: Array<number> = []
  const verify: Array<number> = []
  for (let i = 0; i < logins; i++) {
    without.push((await logIn("plain")).ms)
    const { username, code } = codes[i] as { username: string; code: string }
    const challenged = await logIn(username)
    withMfa.push(challenged.ms)
    verify.push(
      (
        await call("POST", "/api/v1/auth/mfa/verify", {
          challenge: challenged.answer.challenge,
          recoveryCode: code
        })
      ).ms
    )
  }
  await web.dispose()
  return {
    logins,
    withoutMfaMedianMs: median(without),
    withMfaMedianMs: median(withMfa),
    verifyMedianMs: median(verify)
  }
}

export const printMfaLoginTiming = (timing: MfaLoginTiming) => {
  const row = (label: string, value: number) => `${label.padEnd(40)} ${value.toFixed(2).padStart(8)} ms`
  console.log(
    `\nSigning in, with and without a second factor (${timing.logins} of each, in process, median):`
  )
  console.log(row("login, no TOTP (answers a session)", timing.withoutMfaMedianMs))
  console.log(row("login, TOTP on (answers a challenge)", timing.withMfaMedianMs))
  console.log(row("challenge completed (recovery code)", timing.verifyMedianMs))
}

if (import.meta.main) printMfaLoginTiming(await mfaLoginTiming(Number(process.env.LOGINS ?? 30)))
