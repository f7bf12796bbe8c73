import { execFileSync } from "node:child_process"
import { describe, expect, it } from "vitest"

const runtimes = {
  bun: ["node_modules/.bin/bun", ["run", "test/support/hash-probe.ts"]],
  deno: ["node_modules/.bin/deno", ["run", "--allow-read", "--allow-env", "test/support/hash-probe.ts"]]
} as const

describe("password hashing on the other runtimes", () => {
  for (const [name, [command, args]] of Object.entries(runtimes)) {
    it(`works on ${name} without blocking its event loop`, () => {
      const output = execFileSync(command, args, { encoding: "utf8", timeout: 60_000 })
      const result = JSON.parse(output.trim().split("\n").at(-1) ?? "{}")
      expect(result).toMatchObject({ prefix: "$scrypt$ln=14,r=8,p=5$", accepted: true, rejected: false })
      expect(result.ticks).toBeGreaterThan(0)
    })
  }
})
