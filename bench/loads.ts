import type { Request } from "./wrk.ts"

export interface Load {
  readonly name: string
  readonly requests: ReadonlyArray<Request>
  /** The bare HttpApi endpoint this one is held against (the same shape, no Roster). */
  readonly floor: string
}

const roleAdd: Request = {
  method: "POST",
  path: "/api/v1/team/role/add",
  body: JSON.stringify({ name: "Bench", roleKey: "bench", activeStatus: true })
}
const memberAddInvalid: Request = { method: "POST", path: "/api/v1/team/add", body: '{"username":"x"}' }
const grant: Request = {
  method: "POST",
  path: "/api/v1/team/role-permission-detail",
  body: JSON.stringify({ roleId: 1, permissionId: 1 })
}
/** Renames role 1 back and forth: each request changes it, so each writes the change and its audit entry. */
const renames: ReadonlyArray<Request> = ["Bench A", "Bench B"].map((name) => ({
  method: "PATCH",
  path: "/api/v1/team/roles/1",
  body: JSON.stringify({ name })
}))
const get = (path: string): Request => ({ method: "GET", path })

const withAuth = (request: Request, token: string | undefined): Request =>
  token === undefined ? request : { ...request, headers: { Authorization: `Bearer ${token}` } }

export const floorGet = "GET /api/v1/team/roles"

/**
 * Cheap reads, a 409, a 400, a write that changes nothing (granting a held permission), writes that
 * change something (and so are audited), and the first five mixed.
 */
export const loads = (token?: string): ReadonlyArray<Load> => {
  const single = (name: string, request: Request, floor = name): Load => ({
    name,
    requests: [withAuth(request, token)],
    floor
  })
  return [
    single("GET /health/live", get("/health/live")),
    single("GET /api/v1/team/roles", get("/api/v1/team/roles")),
    single("GET /api/v1/auth/me", get("/api/v1/auth/me"), floorGet),
    single("GET /api/v1/team/members", get("/api/v1/team/members"), floorGet),
    single("POST /api/v1/team/role/add (409)", roleAdd),
    single("POST /api/v1/team/add (400)", memberAddInvalid),
    single("POST /api/v1/team/role-permission-detail (200)", grant),
    // Held against the grant's floor: a write with a body answered 200.
    {
      name: "PATCH /api/v1/team/roles/1 (audited)",
      requests: renames.map((request) => withAuth(request, token)),
      floor: "POST /api/v1/team/role-permission-detail (200)"
    },
    {
      name: "mixed",
      requests: [get("/api/v1/team/roles"), get("/health/live"), roleAdd, memberAddInvalid, grant].map((r) =>
        withAuth(r, token)
      ),
      floor: "mixed"
    }
  ]
}

export const seedRequests: ReadonlyArray<Request> = [roleAdd, grant]
export const benchMember = { username: "bench", password: "a bench passphrase" }
