import { Worker } from "node:worker_threads"

/**
 * What each hashing thread runs (CommonJS, evaluated as is by Node, Bun and Deno alike): scrypt,
 * synchronously, one job at a time. On Linux the thread first lowers its own priority to the
 * lowest (nice 19, allowed without privileges), so that a hash only takes the CPU the event loop
 * leaves: on a single core, hashes at the event loop's priority took half of it, and every
 * request waited behind them. Elsewhere the priority stays as it is.
 */
const threadSource = `
const { parentPort } = require("node:worker_threads")
const { scryptSync } = require("node:crypto")
try {
  const thread = Number(require("node:fs").readlinkSync("/proc/thread-self").split("/").pop())
  require("node:os").setPriority(thread, 19)
} catch {}
parentPort.on("message", ({ password, salt, keyLength, options }) => {
  try {
    parentPort.postMessage({ key: scryptSync(password, Buffer.from(salt), keyLength, options) })
  } catch (error) {
    parentPort.postMessage({ error: String(error) })
  }
})
`

export interface ScryptJob {
  readonly password: string
  readonly salt: Uint8Array
  readonly keyLength: number
  readonly options: { readonly N: number; readonly r: number; readonly p: number; readonly maxmem: number }
}

interface Pending {
  readonly job: ScryptJob
  readonly resolve: (key: Buffer) => void
  readonly reject: (error: Error) => void
}

/**
 * Up to `count` threads that hash, started when first needed. A thread holds the process open
 * only while it hashes, so an idle hasher never keeps a process from ending.
 */
export const makeHashingThreads = (count: number) => {
  const idle: Array<Worker> = []
  const queue: Array<Pending> = []
  let started = 0

  const run = (worker: Worker, pending: Pending) => {
    worker.ref()
    const settle = (message: { readonly key?: Uint8Array; readonly error?: string }) => {
      worker.off("error", fail)
      worker.unref()
      if (message.key !== undefined) pending.resolve(Buffer.from(message.key))
      else pending.reject(new Error(message.error ?? "scrypt failed"))
      release(worker)
    }
    const fail = (error: Error) => {
      worker.off("message", settle)
      started--
      pending.reject(error)
      next()
    }
    worker.once("message", settle)
    worker.once("error", fail)
    worker.postMessage(pending.job)
  }

  const release = (worker: Worker) => {
    const pending = queue.shift()
    if (pending === undefined) idle.push(worker)
    else run(worker, pending)
  }

  const next = () => {
    const pending = queue.shift()
    if (pending === undefined) return
    const worker = idle.pop() ?? (started < count ? spawn() : undefined)
    if (worker === undefined) queue.unshift(pending)
    else run(worker, pending)
  }

  const spawn = () => {
    started++
    const worker = new Worker(threadSource, { eval: true })
    worker.unref()
    return worker
  }

  return {
    hash: (job: ScryptJob) =>
      new Promise<Buffer>((resolve, reject) => {
        queue.push({ job, resolve, reject })
        next()
      })
  }
}
