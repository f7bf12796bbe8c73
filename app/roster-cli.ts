#!/usr/bin/env node
// The operator's commands: `npm run roster -- owner …` from a checkout, `npx roster owner …`,
// `bunx roster owner …` or `deno run -A node_modules/.bin/roster owner …` where the package is installed.
import { parseArgs } from "node:util"
import { fail } from "./commands/cli-support.ts"
import { owner, ownerUsage } from "./commands/owner.ts"
import { permissions, permissionsUsage } from "./commands/permissions.ts"
import { rotateSecrets, rotateSecretsUsage } from "./commands/rotate-secrets.ts"
import { rotateSigningKeyCommand, rotateSigningKeyUsage } from "./commands/rotate-signing-key.ts"
import { onRuntimeWithSqlite } from "./commands/sqlite-runtime.ts"
import { loadEnvFile } from "./env-file.ts"

const commands = {
  owner,
  permissions,
  "rotate-secrets": rotateSecrets,
  "rotate-signing-key": rotateSigningKeyCommand
} as const

loadEnvFile()
await onRuntimeWithSqlite(process.env)
const { positionals, values } = parseArgs({
  args: process.argv.slice(2),
  allowPositionals: true,
  strict: false,
  options: {
    username: { type: "string" },
    email: { type: "string" },
    organization: { type: "string" },
    batch: { type: "string" },
    after: { type: "string" },
    revoke: { type: "string" }
  }
})
const command = commands[positionals[0] as keyof typeof commands]
if (command === undefined)
  fail(
    `Usage:\n  ${ownerUsage}\n  ${permissionsUsage}\n  ${rotateSecretsUsage}\n  ${rotateSigningKeyUsage}`,
    2
  )
await command(values, positionals.slice(1))
process.exit(0)
