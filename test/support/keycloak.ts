import { execFileSync, spawn } from "node:child_process"
import { existsSync, readFileSync } from "node:fs"
import { freePort } from "./server-process.ts"

const version = "26.7.3"
const home = `tools/keycloak/dist/keycloak-${version}`
const admin = { username: "admin", password: "keycloak-admin-password-0123456789" }

export interface RunningKeycloak {
  readonly url: string
  /** A call to Keycloak's admin REST API, as its bootstrap administrator. */
  readonly admin: (method: string, path: string, body?: unknown) => Promise<Response>
  /** What it logged: its warnings say why it refused a request. */
  readonly output: () => string
  readonly stop: () => void
}

/**
 * Keycloak's own distribution (`tools/keycloak/setup.sh` unpacks it, here when `.ci/run` did not) in
 * development mode, its database in memory, on loopback; resolves once it listens (about a minute).
 */
export const startKeycloak = async (): Promise<RunningKeycloak> => {
  if (!existsSync(`${home}/bin/kc.sh`) || !existsSync("tools/keycloak/java-home")) {
    execFileSync("bash", ["tools/keycloak/setup.sh"], { stdio: "ignore" })
  }
  const port = await freePort()
  const child = spawn(
    `${home}/bin/kc.sh`,
    ["start-dev", "--db=dev-mem", `--http-port=${port}`, "--http-host=127.0.0.1"],
    {
      env: {
        ...process.env,
        JAVA_HOME: readFileSync("tools/keycloak/java-home", "utf8").trim(),
        KC_BOOTSTRAP_ADMIN_USERNAME: admin.username,
        KC_BOOTSTRAP_ADMIN_PASSWORD: admin.password
      },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true
    }
  )
  const stop = () => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL")
    } catch {
      // Already gone.
    }
  }
  let output = ""
  await new Promise<void>((resolve, reject) => {
    const startup = setTimeout(() => {
      stop()
      reject(new Error(`Keycloak did not start in 4 minutes:\n${output.slice(-3000)}`))
    }, 240_000)
    const watch = (chunk: Buffer) => {
      output += chunk
      if (/started in [\d.]+s\. Listening on/u.test(output)) {
        clearTimeout(startup)
        resolve()
      }
    }
    child.stdout.on("data", watch)
    child.stderr.on("data", watch)
    child.once("exit", (code) => {
      clearTimeout(startup)
      reject(new Error(`Keycloak exited (${code}):\n${output.slice(-3000)}`))
    })
  })
  const url = `http://127.0.0.1:${port}`
  const token = async () => {
    const answer = await fetch(`${url}/realms/master/protocol/openid-connect/token`, {
      method: "POST",
      body: new URLSearchParams({ grant_type: "password", client_id: "admin-cli", ...admin })
    })
    return ((await answer.json()) as { access_token: string }).access_token
  }
  return {
    url,
    admin: async (method, path, body) =>
      fetch(`${url}${path}`, {
        method,
        headers: { authorization: `Bearer ${await token()}`, "content-type": "application/json" },
        ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) })
      }),
    output: () => output,
    stop
  }
}
