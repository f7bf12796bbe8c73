import { expect } from "vitest"
import { password } from "./http.ts"
import type { TestOidcIdp } from "./oidc-idp.ts"
import { endedWith, inAcme, productPage, rosterBase, type SsoWorld, signInAtOidc } from "./sso.ts"

/** A member of Acme in a role of its own holding `permissionIds` (or in `roleId`), signed in by password. */
export const acmeMember = async (
  world: SsoWorld,
  username: string,
  role: { readonly permissionIds: ReadonlyArray<number> } | { readonly roleId: number },
  email = `${username}@elsewhere.example`
) => {
  let roleId: number
  if ("roleId" in role) roleId = role.roleId
  else {
    const made = await world.api.call("POST", "/api/v1/team/role/add", {
      ...inAcme,
      body: { name: `${username} role`, roleKey: `${username}-role` }
    })
    expect(made.status, made.text).toBe(200)
    roleId = made.body.id
    for (const permissionId of role.permissionIds) {
      const granted = await world.api.call("POST", "/api/v1/team/role-permission-detail", {
        ...inAcme,
        body: { roleId, permissionId }
      })
      expect(granted.status, granted.text).toBe(200)
    }
  }
  const member = await world.api.call("POST", "/api/v1/team/add", {
    ...inAcme,
    body: { username, email, password, activestatus: true, roleId }
  })
  expect(member.status, member.text).toBe(200)
  const login = await logInAcme(world, username)
  expect(login.status, login.text).toBe(200)
  return { id: member.body.id as string, roleId, token: login.body.token as string }
}

export const logInAcme = (world: SsoWorld, username: string, secret = password) =>
  world.api.call("POST", "/api/v1/auth/login", { body: { username, password: secret, organization: "acme" } })

/** What a sign-in through `connectionId` at an OIDC IdP ended with: its code exchanged, or its error. */
export const oidcSignIn = async (world: SsoWorld, idp: TestOidcIdp, connectionId: string, login: string) => {
  const browser = world.browser()
  const started = await browser.go(
    `${rosterBase}/api/v1/sso/start?connection=${connectionId}&returnTo=${encodeURIComponent(productPage)}`
  )
  const ended = endedWith(await signInAtOidc(browser, started, idp.issuer, login))
  if (ended.code === undefined) return { error: ended.error }
  const exchanged = await world.api.call("POST", "/api/v1/sso/token", { body: { code: ended.code } })
  expect(exchanged.status, exchanged.text).toBe(200)
  return { token: exchanged.body.token as string, memberId: exchanged.body.member.id as string }
}

/** The audit actions on `targetId`, newest first. */
export const actionsOn = async (world: SsoWorld, targetId: string) =>
  (await world.api.call("GET", `/api/v1/audit/events?targetId=${targetId}`, inAcme)).body.map(
    (entry: { action: string }) => entry.action
  )

export const asToken = (token: string) => ({ token, headers: { "roster-organization": "acme" } })
