import { afterEach, describe, expect, it } from "vitest"
import { type RunningServer, scriptCommand, startServer } from "../support/server-process.ts"
import { startSmtpSink } from "../support/smtp-sink.ts"

const masterKey = "e2e-master-key-long-enough-for-roster-0123"
const password = "a long enough passphrase"

let cleanup: Array<() => unknown> = []
afterEach(async () => {
  for (const step of cleanup.reverse()) await step()
  cleanup = []
})

const call = (server: RunningServer, method: string, path: string, body?: unknown, token = masterKey) =>
  fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })

/**
 * A real SMTP server, and the service started as a user would with mail pointed at it under
 * `secret`, with a role to invite into: both stopped after the test.
 */
const serviceWithMail = async (secret: string) => {
  const smtp = await startSmtpSink()
  cleanup.push(smtp.close)
  const server = await startServer(scriptCommand("start"), {
    ROSTER_MASTER_KEY: masterKey,
    ROSTER_SMTP_URL: `smtp://roster:${secret}@127.0.0.1:${smtp.port}`,
    ROSTER_MAIL_FROM: "Roster <roster@example.com>",
    ROSTER_INVITE_URL: "https://app.example.com/invitations/accept?token={token}"
  })
  cleanup.push(server.kill)
  const role = await (
    await call(server, "POST", "/api/v1/team/role/add", { name: "Staff", roleKey: "staff" })
  ).json()
  const invite = (email: string) =>
    call(server, "POST", "/api/v1/team/invitations", { email, roleId: role.id })
  return { smtp, server, role, invite }
}

describe("invitations by mail (npm start with ROSTER_SMTP_URL)", () => {
  it("mails the link to a real SMTP server; the link's token signs the new member in, once", async () => {
    const { smtp, server, role, invite } = await serviceWithMail("smtp-secret")
    const invited = await invite("grace@example.com")
    const invitation = await invited.json()
    expect(invited.status, JSON.stringify(invitation)).toBe(200)
    expect(invitation).not.toHaveProperty("token")

    const message = await smtp.nextMessage(1)
    expect(message.from).toBe("roster@example.com")
    expect(message.to).toEqual(["grace@example.com"])
    expect(message.text).toMatch(/^Subject: Join Default on Roster/mu)
    const link = /https:\/\/app\.example\.com\/invitations\/accept\?token=(\S+)/u.exec(message.text)
    expect(link, message.text).not.toBeNull()
    const token = decodeURIComponent(link?.[1] ?? "")

    const accepted = await fetch(`${server.url}/api/v1/invitations/accept`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ token, username: "grace", password })
    })
    const session = await accepted.json()
    expect(accepted.status, JSON.stringify(session)).toBe(200)
    expect(session.member).toMatchObject({ username: "grace", roleId: role.id })
    const me = await (await call(server, "GET", "/api/v1/auth/me", undefined, session.token)).json()
    expect(me.member.username).toBe("grace")
    const login = await fetch(`${server.url}/api/v1/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: "grace@example.com", password })
    })
    expect(login.status).toBe(200)

    const again = await fetch(`${server.url}/api/v1/invitations/accept`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ token, username: "grace-again", password })
    })
    expect(again.status).toBe(410)
    expect(server.output()).not.toContain(token)
  })

  it("a mail server that refuses the message: 503, the invitation revoked, its link worth nothing", async () => {
    const { smtp, server, invite } = await serviceWithMail("wrong-secret")
    const refused = await invite("grace@example.com")
    expect(refused.status).toBe(503)
    expect((await refused.json()).code).toBe("unavailable")
    const listed = await (await call(server, "GET", "/api/v1/team/invitations")).json()
    expect(listed.map((invitation: { status: string }) => invitation.status)).toEqual(["revoked"])
    expect(smtp.received).toHaveLength(0)
  })

  it("refuses to start with mail half configured", async () => {
    await expect(
      startServer(scriptCommand("start"), {
        ROSTER_MASTER_KEY: masterKey,
        ROSTER_SMTP_URL: "smtp://127.0.0.1:2525",
        ROSTER_MAIL_FROM: "roster@example.com"
      })
    ).rejects.toThrow(/ROSTER_INVITE_URL must be set/u)
  })
})
