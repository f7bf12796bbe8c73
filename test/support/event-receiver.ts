import { type ChildProcess, spawn } from "node:child_process"
import { eventually } from "./eventually.ts"
import { freePort } from "./server-process.ts"

/** A message the receiver took, as it verified it. */
export interface Received {
  readonly id: string
  readonly type: string | null
  readonly body: string
  /** How many signatures the message carried, and how many of the receiver's secrets verified it. */
  readonly signatures: number
  readonly verifiedBy: number
  readonly answered: number
  readonly at: number
}

export interface Receiver {
  readonly url: string
  /** Secrets it verifies with; answers in `plan` in turn, then `otherwise` (204 unless set). */
  readonly set: (settings: {
    readonly secrets?: ReadonlyArray<string>
    readonly plan?: ReadonlyArray<number>
    readonly otherwise?: number
  }) => Promise<void>
  readonly received: () => Promise<ReadonlyArray<Received>>
  /** Waits until `done` holds of what it received. */
  readonly waitFor: (
    done: (received: ReadonlyArray<Received>) => boolean,
    timeoutMs?: number
  ) => Promise<ReadonlyArray<Received>>
  readonly stop: () => Promise<void>
}

/** Starts the receiver process (`event-receiver.mjs`) on `port`, a free one when absent. */
export const startReceiver = async (port?: number): Promise<Receiver> => {
  const listenOn = port ?? (await freePort())
  const child: ChildProcess = spawn(process.execPath, ["test/support/event-receiver.mjs", String(listenOn)], {
    stdio: ["ignore", "pipe", "inherit"]
  })
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("receiver listening")) resolve()
    })
    child.once("exit", () => reject(new Error("the receiver did not start")))
  })
  const url = `http://127.0.0.1:${listenOn}`
  const received = async () =>
    (await (await fetch(`${url}/control/received`)).json()) as ReadonlyArray<Received>
  return {
    url,
    set: async (settings) => {
      await fetch(`${url}/control/set`, { method: "POST", body: JSON.stringify(settings) })
    },
    received,
    waitFor: (done, timeoutMs = 20_000) => eventually(received, done, { timeoutMs }),
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve()
        child.once("exit", () => resolve())
        child.kill("SIGTERM")
      })
  }
}
