import { type ChildProcess, spawn } from "node:child_process"

export interface ListeningProcess {
  /** What the process printed for `ready`'s first group: its address. */
  readonly address: string
  readonly process: ChildProcess
  /** Stops it (SIGTERM, or the signal given) and waits for it to exit. */
  readonly stop: (signal?: NodeJS.Signals) => Promise<void>
}

/**
 * Starts a test server binary and resolves once it prints a line matching `ready`, whose first group
 * is the address it listens on; fails with what it printed if it exits first or takes over 30 s.
 */
export const startListening = (binary: string, args: ReadonlyArray<string>, ready: RegExp) =>
  new Promise<ListeningProcess>((resolve, reject) => {
    const child = spawn(binary, args, { stdio: ["pipe", "pipe", "pipe"] })
    const startup = setTimeout(() => child.kill("SIGKILL"), 30_000)
    let output = ""
    const exited = new Promise<void>((done) => child.once("exit", () => done()))
    const watch = (chunk: Buffer) => {
      output += chunk
      const address = ready.exec(output)?.[1]
      if (address === undefined) return
      clearTimeout(startup)
      resolve({
        address,
        process: child,
        stop: async (signal = "SIGTERM") => {
          if (child.exitCode === null && child.signalCode === null) child.kill(signal)
          await exited
        }
      })
    }
    child.stderr.on("data", watch)
    child.stdout.on("data", watch)
    child.once("exit", (code) =>
      reject(new Error(`${binary} exited (${code}) before it was ready:\n${output}`))
    )
  })
