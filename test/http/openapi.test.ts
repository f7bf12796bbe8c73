import { beforeAll, describe, expect, it } from "vitest"
import { startApi } from "../support/http.ts"

// biome-ignore lint/suspicious/noExplicitAny: the document is inspected as plain JSON
let document: any

beforeAll(async () => {
  // Secure mode: the document is public, like health and login.
  const api = await startApi()
  const answer = await api.call("GET", "/api/v1/openapi.json")
  expect(answer.status).toBe(200)
  document = answer.body
})

const operation = (method: string, path: string) => document.paths[path]?.[method]

const contract = [
  ["post", "/api/v1/team/add"],
  ["post", "/api/v1/team/role/add"],
  ["post", "/api/v1/pricing/subscribe"],
  ["post", "/api/v1/admin/toggle-account-status"],
  ["delete", "/api/v1/team/role-permission-detail/{id}"],
  ["post", "/api/v1/payments/webhook"],
  ["post", "/api/v1/auth/login"],
  ["post", "/api/v1/auth/logout"],
  ["get", "/api/v1/auth/me"],
  ["get", "/api/v1/team/members"],
  ["get", "/api/v1/team/members/{id}"],
  ["get", "/api/v1/team/roles"],
  ["get", "/api/v1/team/permissions"],
  ["post", "/api/v1/team/role-permission-detail"],
  ["get", "/api/v1/team/role-permission-detail/{id}"],
  ["get", "/api/v1/pricing/plans"],
  ["get", "/api/v1/pricing/subscription"],
  ["get", "/health/live"],
  ["get", "/health/ready"]
] as const

describe("the OpenAPI document", () => {
  it("is OpenAPI 3.1 and describes every endpoint of the contract", () => {
    expect(document.openapi).toMatch(/^3\.1\./)
    for (const [method, path] of contract) expect(operation(method, path), `${method} ${path}`).toBeDefined()
  })

  it("declares JSON bodies under application/json and */*, as the server accepts them", () => {
    for (const [method, path] of contract.filter(([method]) => method !== "get")) {
      const content = operation(method, path).requestBody?.content
      if (content === undefined) continue
      expect(Object.keys(content).sort(), `${method} ${path}`).toEqual(["*/*", "application/json"])
    }
    const addMember = operation("post", "/api/v1/team/add").requestBody.content["*/*"].schema
    expect(addMember).toBeDefined()
  })

  it("documents errors as problem details with their codes", () => {
    const responses = operation("post", "/api/v1/team/add").responses
    for (const status of ["400", "401", "403", "409", "413", "422", "500", "503"]) {
      expect(Object.keys(responses[status].content), status).toEqual(["application/problem+json"])
    }
    const validation = document.components.schemas.ValidationFailedEncoded
    expect(validation.properties.code.enum).toEqual(["validation_failed"])
    expect(validation.properties.errors.type).toBe("array")
    const login = operation("post", "/api/v1/auth/login").responses["429"]
    expect(login.headers["retry-after"]).toBeDefined()
  })

  it("declares bearer security on protected endpoints and none on login, webhook and health", () => {
    expect(document.components.securitySchemes.bearer).toMatchObject({ type: "http", scheme: "Bearer" })
    expect(operation("post", "/api/v1/team/add").security).toEqual([{ bearer: [] }])
    for (const [method, path] of [
      ["post", "/api/v1/auth/login"],
      ["post", "/api/v1/payments/webhook"],
      ["get", "/health/ready"]
    ] as const) {
      expect(operation(method, path).security ?? [], `${method} ${path}`).toEqual([])
    }
  })
})
