import { benchMember, seedRequests } from "./loads.ts"

/** The master key every secure subject of the bench is started with. */
export const benchMasterKey = "bench-master-key-0123456789abcdef0123456789"

const post = async (base: string, path: string, body: unknown, token?: string) => {
  const response = await fetch(base + path, {
    method: "POST",
    headers: { "content-type": "*/*", ...(token === undefined ? {} : { authorization: `Bearer ${token}` }) },
    body: JSON.stringify(body)
  })
  return (await response.json()) as Record<string, unknown>
}

/** Role 1 exists (so adding it again is a 409) and holds a permission (so granting it again is a 200). */
export const seedOpen = async (base: string, token?: string) => {
  for (const request of seedRequests) await post(base, request.path, JSON.parse(request.body ?? "{}"), token)
  return undefined
}

/** Members beside the bench's own, so that the members list is a list. */
const otherMembers = 9

/** The open seed, plus a member holding every permission, logged in, and others: returns their session token. */
export const seedSecure = async (base: string, masterKey: string) => {
  await seedOpen(base, masterKey)
  for (let permissionId = 1; permissionId <= 8; permissionId++) {
    await post(base, "/api/v1/team/role-permission-detail", { roleId: 1, permissionId }, masterKey)
  }
  await post(
    base,
    "/api/v1/team/add",
    { ...benchMember, email: "bench@example.com", activestatus: true, roleId: 1 },
    masterKey
  )
  for (let i = 1; i <= otherMembers; i++) {
    const username = `member${i}`
    await post(
      base,
      "/api/v1/team/add",
      {
        username,
        password: benchMember.password,
        email: `${username}@example.com`,
        activestatus: true,
        roleId: 1
      },
      masterKey
    )
  }
  const login = await post(base, "/api/v1/auth/login", benchMember)
  if (typeof login.token !== "string") throw new Error(`bench login failed: ${JSON.stringify(login)}`)
  return login.token
}

/** The secure seed, plus an API key holding what the bench member holds: returns the key. */
export const seedSecureKey = async (base: string, masterKey: string) => {
  await seedSecure(base, masterKey)
  const made = await post(
    base,
    "/api/v1/organization/api-keys",
    { name: "Bench", permissions: [1, 2, 3, 4, 5, 6, 7, 8] },
    masterKey
  )
  if (typeof made.key !== "string") throw new Error(`bench key failed: ${JSON.stringify(made)}`)
  return made.key
}
