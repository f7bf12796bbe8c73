import { existsSync, readFileSync } from "node:fs"
import { parseEnv } from "node:util"

/**
 * Reads `.env` from the working folder into `env`, alike on Bun, Deno and Node (the npm scripts
 * start Bun with `--no-env-file`, so that it does not read `.env.local` and the rest on its own). A
 * variable the environment has already wins.
 */
export const loadEnvFile = (path = ".env", env: Record<string, string | undefined> = process.env) => {
  if (!existsSync(path)) return
  for (const [name, value] of Object.entries(parseEnv(readFileSync(path, "utf8"))))
    if (env[name] === undefined) env[name] = value
}
