import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import { existsSync } from "node:fs"
import { afterEach, describe, expect, it } from "vitest"
import { freePort, type RunningServer, scriptCommand, startServer } from "../support/server-process.ts"

interface ReceivedSpan {
  readonly service: string
  readonly name: string
  readonly traceId: string
  readonly spanId: string
  readonly parentSpanId: string
  readonly attributes: Readonly<Record<string, unknown>>
}

const receiverBinary = "tools/otlp-receiver/bin/otlp-receiver"

/** The OTLP receiver of tools/otlp-receiver (the Collector's own decoder), every span it received. */
const startReceiver = async () => {
  if (!existsSync(receiverBinary))
    execFileSync("bash", ["tools/otlp-receiver/build.sh"], { stdio: "inherit" })
  const port = await freePort()
  const child: ChildProcess = spawn(receiverBinary, [`127.0.0.1:${port}`])
  const spans: Array<ReceivedSpan> = []
  let pending = ""
  child.stdout?.on("data", (chunk: Buffer) => {
    pending += chunk.toString()
    const lines = pending.split("\n")
    pending = lines.pop() ?? ""
    for (const line of lines) if (line !== "") spans.push(JSON.parse(line) as ReceivedSpan)
  })
  await new Promise<void>((resolve, reject) => {
    child.stderr?.once("data", () => resolve())
    child.once("exit", (code) => reject(new Error(`the receiver exited with ${code}`)))
  })
  return { url: `http://127.0.0.1:${port}`, spans, stop: () => child.kill() }
}

const cleanups: Array<() => unknown> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const until = async <A>(find: () => A | undefined, what: string) => {
  for (const started = Date.now(); Date.now() - started < 10_000; ) {
    const found = find()
    if (found !== undefined) return found
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`not received within 10 s: ${what}`)
}

describe("traces exported over OTLP, as the OTEL_* variables say", () => {
  it("continue a caller's traceparent: a span per request, its use case and store calls below it, and log lines that name them", async () => {
    const receiver = await startReceiver()
    cleanups.push(receiver.stop)
    const server: RunningServer = await startServer(scriptCommand("start"), {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_SERVICE_NAME: "roster-under-test",
      OTEL_BSP_SCHEDULE_DELAY: "100"
    })
    cleanups.push(server.kill)
    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736"
    const callerSpan = "00f067aa0ba902b7"
    const answer = await fetch(`${server.url}/api/v1/team/roles`, {
      headers: { traceparent: `00-${traceId}-${callerSpan}-01` }
    })
    expect(answer.status).toBe(200)

    const span = await until(
      () =>
        receiver.spans.find(
          (received) => received.traceId === traceId && received.name === "GET /api/v1/team/roles"
        ),
      "the request's span"
    )
    expect(span.service).toBe("roster-under-test")
    expect(span.parentSpanId).toBe(callerSpan)
    const logLine = await until(
      () =>
        server
          .output()
          .split("\n")
          .filter((line) => line.includes('"msg":"request"') && line.includes("/api/v1/team/roles"))
          .map((line) => JSON.parse(line) as { traceId?: string; spanId?: string })
          .find((line) => line.traceId === traceId),
      "the request's log line"
    )
    expect(logLine.spanId).toBe(span.spanId)

    const writeTrace = "0af7651916cd43dd8448eb211c80319c"
    const added = await fetch(`${server.url}/api/v1/team/role/add`, {
      method: "POST",
      headers: { "content-type": "application/json", traceparent: `00-${writeTrace}-b7ad6b7169203331-01` },
      body: JSON.stringify({ name: "Traced", roleKey: "traced" })
    })
    expect(added.status).toBe(200)
    const spanNamed = (name: string) =>
      until(
        () => receiver.spans.find((received) => received.traceId === writeTrace && received.name === name),
        name
      )
    const request = await spanNamed("POST /api/v1/team/role/add")
    const useCase = await spanNamed("team.addRole")
    const insert = await spanNamed("RoleStore.insert")
    expect(request.parentSpanId).toBe("b7ad6b7169203331")
    expect(useCase.parentSpanId).toBe(request.spanId)
    expect(insert.parentSpanId).toBe(useCase.spanId)

    await fetch(`${server.url}/api/v1/team/roles`)
    const fresh = await until(
      () =>
        receiver.spans.find(
          (received) =>
            received.traceId !== traceId &&
            received.traceId !== writeTrace &&
            received.name === "GET /api/v1/team/roles"
        ),
      "a request without traceparent"
    )
    expect(fresh.parentSpanId).toBe("0000000000000000")
  }, 60_000)

  it("sample as OTEL_TRACES_SAMPLER says: parent-based, a caller's decision holds; of the others, the ratio's share", async () => {
    const receiver = await startReceiver()
    cleanups.push(receiver.stop)
    const server = await startServer(scriptCommand("start"), {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_BSP_SCHEDULE_DELAY: "100",
      OTEL_TRACES_SAMPLER: "parentbased_traceidratio",
      OTEL_TRACES_SAMPLER_ARG: "0"
    })
    cleanups.push(server.kill)
    const sampledTrace = "11111111111111111111111111111111"
    const declinedTrace = "22222222222222222222222222222222"
    const call = (traceparent?: string) =>
      fetch(`${server.url}/api/v1/team/roles`, traceparent === undefined ? {} : { headers: { traceparent } })
    await call(`00-${declinedTrace}-00f067aa0ba902b7-00`)
    await call()
    await call(`00-${sampledTrace}-00f067aa0ba902b7-01`)
    await until(
      () => receiver.spans.find((span) => span.traceId === sampledTrace && span.name === "RoleLookup.page"),
      "the sampled request's spans"
    )
    await new Promise((resolve) => setTimeout(resolve, 500))
    expect(new Set(receiver.spans.map((span) => span.traceId))).toEqual(new Set([sampledTrace]))
    const lines = server
      .output()
      .split("\n")
      .filter((line) => line.includes('"msg":"request"'))
    expect(lines.filter((line) => line.includes(sampledTrace))).toHaveLength(1)
    expect(lines.filter((line) => line.includes("traceId"))).toHaveLength(1)
  }, 60_000)

  it("are not made without an endpoint: no span id in the log lines", async () => {
    const server = await startServer(scriptCommand("start"), {})
    cleanups.push(server.kill)
    await fetch(`${server.url}/api/v1/team/roles`)
    await new Promise((resolve) => setTimeout(resolve, 200))
    const lines = server
      .output()
      .split("\n")
      .filter((line) => line.includes('"msg":"request"'))
    expect(lines.length).toBeGreaterThan(0)
    for (const line of lines) expect(line).not.toContain("traceId")
  })
})
