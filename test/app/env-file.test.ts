import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { loadEnvFile } from "../../app/env-file.ts"

const directory = mkdtempSync(join(tmpdir(), "roster-env-"))
afterAll(() => rmSync(directory, { recursive: true, force: true }))

describe(".env", () => {
  it("sets what the environment lacks, never what it has, and is no error when absent", () => {
    const file = join(directory, ".env")
    writeFileSync(file, '# settings\nPORT=4000\nROSTER_MASTER_KEY="quoted value"\nHOST=0.0.0.0\n')
    const env: Record<string, string | undefined> = { HOST: "127.0.0.1" }
    loadEnvFile(file, env)
    expect(env).toEqual({ PORT: "4000", ROSTER_MASTER_KEY: "quoted value", HOST: "127.0.0.1" })
    const untouched: Record<string, string | undefined> = {}
    loadEnvFile(join(directory, "missing.env"), untouched)
    expect(untouched).toEqual({})
  })
})
