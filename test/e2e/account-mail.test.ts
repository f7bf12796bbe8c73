import { afterEach, describe, expect, it } from "vitest"
import { type RunningServer, scriptCommand, startServer } from "../support/server-process.ts"
import { startSmtpSink } from "../support/smtp-sink.ts"

const masterKey = "e2e-master-key-long-enough-for-roster-0123"
const password = "a long enough passphrase"
const newPassword = "a new and long enough passphrase"

let cleanup: Array<() => unknown> = []
afterEach(async () => {
  for (const step of cleanup.reverse()) await step()
  cleanup = []
})

const call = (server: RunningServer, method: string, path: string, body?: unknown, token?: string) =>
  fetch(`${server.url}${path}`, {
    method,
    headers: {
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
      "content-type": "application/json"
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })

const login = async (server: RunningServer, secret: string) =>
  call(server, "POST", "/api/v1/auth/login", { username: "ada", password: secret })

/** The token in the link of `text` that starts with `base`. */
const tokenIn = (text: string, base: string) => {
  const link = new RegExp(`${base.replaceAll(".", "\\.").replaceAll("?", "\\?")}(\\S+)`, "u").exec(text)
  expect(link, text).not.toBeNull()
  return decodeURIComponent(link?.[1] ?? "")
}

describe("password reset and verification by mail (npm start with ROSTER_SMTP_URL)", () => {
  it("mails links to a real SMTP server: the reset link sets the password and ends old sessions, the verification link verifies", async () => {
    const smtp = await startSmtpSink()
    cleanup.push(smtp.close)
    const server = await startServer(scriptCommand("start"), {
      ROSTER_MASTER_KEY: masterKey,
      ROSTER_SMTP_URL: `smtp://roster:smtp-secret@127.0.0.1:${smtp.port}`,
      ROSTER_MAIL_FROM: "Roster <roster@example.com>",
      ROSTER_INVITE_URL: "https://app.example.com/invitations/accept?token={token}",
      ROSTER_RESET_URL: "https://app.example.com/password/reset?token={token}",
      ROSTER_VERIFY_URL: "https://app.example.com/email/verify?token={token}"
    })
    cleanup.push(server.kill)
    expect(server.output()).toMatch(
      /mail: invitations, password resets, verifications through ROSTER_SMTP_URL/u
    )
    const role = await (
      await call(server, "POST", "/api/v1/team/role/add", { name: "Staff", roleKey: "staff" }, masterKey)
    ).json()
    const added = await call(
      server,
      "POST",
      "/api/v1/team/add",
      { username: "ada", email: "ada@example.com", password, activestatus: true, roleId: role.id },
      masterKey
    )
    expect(added.status).toBe(200)
    const old = await (await login(server, password)).json()

    const asked = await call(server, "POST", "/api/v1/auth/password/forgot", { email: "ada@example.com" })
    expect(asked.status).toBe(202)
    const resetMail = await smtp.nextMessage(1)
    expect(resetMail.to).toEqual(["ada@example.com"])
    expect(resetMail.text).toMatch(/^Subject: Reset your Roster password/mu)
    const resetToken = tokenIn(resetMail.text, "https://app.example.com/password/reset?token=")
    const done = await call(server, "POST", "/api/v1/auth/password/reset", { token: resetToken, newPassword })
    expect(done.status, await done.clone().text()).toBe(200)
    expect((await call(server, "GET", "/api/v1/auth/me", undefined, old.token)).status).toBe(401)
    expect((await login(server, password)).status).toBe(401)
    const session = await (await login(server, newPassword)).json()

    const requested = await call(
      server,
      "POST",
      "/api/v1/auth/email/verify-request",
      undefined,
      session.token
    )
    expect(requested.status).toBe(202)
    const verifyMail = await smtp.nextMessage(2)
    expect(verifyMail.text).toMatch(/^Subject: Verify your e-mail address for Roster/mu)
    const verifyToken = tokenIn(verifyMail.text, "https://app.example.com/email/verify?token=")
    const verified = await call(server, "POST", "/api/v1/auth/email/verify", { token: verifyToken })
    expect(await verified.json()).toMatchObject({ username: "ada", emailVerified: true })
    expect(server.output()).not.toContain(resetToken)
    expect(server.output()).not.toContain(verifyToken)
  })

  it("says at start that reset and verification mail are off without their links", async () => {
    const smtp = await startSmtpSink()
    cleanup.push(smtp.close)
    const server = await startServer(scriptCommand("start"), {
      ROSTER_MASTER_KEY: masterKey,
      ROSTER_SMTP_URL: `smtp://roster:smtp-secret@127.0.0.1:${smtp.port}`,
      ROSTER_MAIL_FROM: "roster@example.com",
      ROSTER_INVITE_URL: "https://app.example.com/invitations/accept?token={token}"
    })
    cleanup.push(server.kill)
    expect(server.output()).toMatch(/password reset mail is off \(no ROSTER_RESET_URL\)/u)
    expect(server.output()).toMatch(/verification mail is off \(no ROSTER_VERIFY_URL\)/u)
    const asked = await call(server, "POST", "/api/v1/auth/password/forgot", { email: "ada@example.com" })
    expect(asked.status).toBe(404)
  })

  it("refuses to start with a reset link that holds no token", async () => {
    await expect(
      startServer(scriptCommand("start"), {
        ROSTER_MASTER_KEY: masterKey,
        ROSTER_SMTP_URL: "smtp://127.0.0.1:2525",
        ROSTER_MAIL_FROM: "roster@example.com",
        ROSTER_INVITE_URL: "https://app.example.com/invitations/accept?token={token}",
        ROSTER_RESET_URL: "https://app.example.com/password/reset"
      })
    ).rejects.toThrow(/ROSTER_RESET_URL must be an http\(s\) link holding \{token\}/u)
  })
})
