// `npm run lint:openapi`: the OpenAPI document of each mode must be valid OpenAPI 3.1
// (swagger-parser), generate client types (openapi-typescript) and pass Redocly's recommended rules
// with no error: client generators are how most users meet this API.
import { spawnSync } from "node:child_process"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import SwaggerParser from "@apidevtools/swagger-parser"
import { openApiDocument } from "../adapters/http/api/openapi-document.ts"

const directory = mkdtempSync(join(tmpdir(), "roster-openapi-"))
let failed = false
for (const openLocal of [false, true]) {
  const mode = openLocal ? "open" : "secure"
  const file = join(directory, `openapi-${mode}.json`)
  writeFileSync(file, JSON.stringify(openApiDocument({ openLocal }), null, 2))
  await SwaggerParser.validate(file).then(
    () => console.log(`${mode}: valid OpenAPI (swagger-parser)`),
    (error: unknown) => {
      failed = true
      console.error(`${mode}: not valid OpenAPI: ${String(error)}`)
    }
  )
  for (const [label, command] of [
    [
      "openapi-typescript",
      ["node_modules/.bin/openapi-typescript", file, "-o", join(directory, `${mode}.d.ts`)]
    ],
    [
      "redocly lint",
      ["node_modules/.bin/redocly", "lint", "--extends", "recommended", "--format", "stylish", file]
    ]
  ] as const) {
    const run = spawnSync(command[0], command.slice(1), {
      stdio: "inherit",
      env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" }
    })
    if (run.status !== 0) failed = true
    console.log(`${mode}: ${label} ${run.status === 0 ? "passed" : "FAILED"}`)
  }
}
process.exit(failed ? 1 : 0)
