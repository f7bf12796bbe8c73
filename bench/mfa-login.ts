// What a second factor adds to signing in: in process, with the service's own password hashing,
// logins of accounts without TOTP (a session) and with it (a challenge), and challenges completed
// with a recovery code, each timed from the call to its answer's last byte. Part of `npm run
// bench`; alone: `bun bench/mfa-login.ts`.
import { generateSync } from "otplib"
import { inProcessService } from "./in-process-service.ts"

export interface MfaLoginTiming {
  readonly logins: number
  readonly withoutMfaMedianMs: number
  readonly withMfaMedianMs: number
  readonly verifyMedianMs: number
}

const password = "a long bench passphrase"
const median = (values: Array<number>) =>
  values.sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN

export const mfaLoginTiming = async (logins = 30): Promise<MfaLoginTiming> => {
  const service = await inProcessService({
    masterKey: "mfa-login-bench-master-key-0123456789abcdef",
    secretsKeys: ["mfa-login-bench-secrets-key-0123456789abcdef"],
    throttle: { maxFailuresPerAccount: 1e9, maxFailuresPerClient: 1e9 }
  })
  const logIn = (username: string) => service.ok("POST", "/api/v1/auth/login", { username, password })
  await service.addMember("plain", password)
  const codes: Array<{ username: string; code: string }> = []
  for (let i = 0; i < Math.ceil(logins / 10); i++) {
    const username = `guarded${i}`
    await service.addMember(username, password)
    const token = String((await logIn(username)).body.token)
    const { secret } = (await service.ok("POST", "/api/v1/auth/mfa/totp", { password }, token)).body
    const code = generateSync({ secret: String(secret) })
    const confirmed = await service.ok("POST", "/api/v1/auth/mfa/totp/confirm", { code }, token)
    for (const recovery of confirmed.body.recoveryCodes as Array<string>)
      codes.push({ username, code: recovery })
  }
  const without: Array<number> = []
  const withMfa: Array<number> = []
  const verify: Array<number> = []
  for (let i = 0; i < logins; i++) {
    without.push((await logIn("plain")).ms)
    const { username, code } = codes[i] as { username: string; code: string }
    const challenged = await logIn(username)
    withMfa.push(challenged.ms)
    const completed = { challenge: challenged.body.challenge, recoveryCode: code }
    verify.push((await service.ok("POST", "/api/v1/auth/mfa/verify", completed)).ms)
  }
  await service.dispose()
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
