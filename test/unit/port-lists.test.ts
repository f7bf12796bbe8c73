import { describe, expect, it } from "vitest"
import * as core from "../../core/index.ts"

/** The per-request ledger of what the store's writes did: provided by whoever runs a use case, no port. */
const notPorts = new Set(["roster/core/ports/StoreWrites"])

describe("the core's lists of ports", () => {
  it("name every port the core declares, each once, so nothing derived from them misses one", () => {
    const declared = Object.values(core)
      .filter(
        (value): value is typeof value & { key: string } =>
          (typeof value === "function" || typeof value === "object") &&
          value !== null &&
          "key" in value &&
          typeof value.key === "string" &&
          value.key.startsWith("roster/core/ports/")
      )
      .map((port) => port.key)
      .filter((key) => !notPorts.has(key))
    const listed = [...core.storePorts, ...core.servicePorts].map((port) => port.key)
    expect(new Set(listed).size).toBe(listed.length)
    expect([...listed].sort()).toEqual([...new Set(declared)].sort())
  })
})
