// Roster's web handler in process, on the in-memory store, for the benches that time single
// requests without a network between (forgot-timing.ts, mfa-login.ts).
import { makeWebHandler } from "../adapters/http/web-handler.ts"
import { type RosterOptions, servedInMemory } from "../app/roster-layer.ts"

export interface Answered {
  readonly status: number
  readonly body: Record<string, unknown>
  /** From the call to the answer's last byte. */
  readonly ms: number
}

export const inProcessService = async (options: RosterOptions & { readonly masterKey: string }) => {
  const web = await makeWebHandler(servedInMemory(options), { maxBodyBytes: 1 << 20, openLocal: false })
  const connection = { remoteAddress: "127.0.0.1" }
  const call = async (method: string, path: string, body?: unknown, token?: string): Promise<Answered> => {
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
      connection
    )
    const answer = (await response.json()) as Record<string, unknown>
    return { status: response.status, body: answer, ms: performance.now() - started }
  }
  /** `call` that must answer 200: anything else ends the bench with the answer. */
  const ok = async (method: string, path: string, body?: unknown, token?: string) => {
    const answered = await call(method, path, body, token)
    if (answered.status !== 200) {
      throw new Error(`${method} ${path} answered ${answered.status}: ${JSON.stringify(answered.body)}`)
    }
    return answered
  }
  const staff = (
    await ok("POST", "/api/v1/team/role/add", { name: "Staff", roleKey: "staff" }, options.masterKey)
  ).body
  /** Adds a member of a role holding nothing, as the operator would. */
  const addMember = (username: string, password: string) =>
    ok(
      "POST",
      "/api/v1/team/add",
      { username, email: `${username}@example.com`, password, activestatus: true, roleId: staff.id },
      options.masterKey
    )
  return { call, ok, addMember, dispose: () => web.dispose() }
}
