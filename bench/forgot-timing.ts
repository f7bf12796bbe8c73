// Whether asking for a password reset tells, by its time, that an address has an account: in
// process (no network between), requests for a known and an unknown address alternate, each timed
// from the call to the answer's last byte; their medians and 90th percentiles are compared. Part of
// `npm run bench`; alone: `bun bench/forgot-timing.ts` (ROUNDS=… to change the count).
import { recordingAccountMail } from "../adapters/memory/index.ts"
import { inProcessService } from "./in-process-service.ts"

export interface ForgotTiming {
  readonly rounds: number
  readonly knownMedianUs: number
  readonly unknownMedianUs: number
  readonly knownP90Us: number
  readonly unknownP90Us: number
}

const percentile = (sorted: ReadonlyArray<number>, p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? Number.NaN

export const forgotTiming = async (rounds = 4000): Promise<ForgotTiming> => {
  const mail = recordingAccountMail()
  const service = await inProcessService({
    masterKey: "forgot-timing-master-key-0123456789abcdef",
    scrypt: { logN: 10, blockSize: 8, parallelism: 1 },
    accountMail: mail.layer,
    // Counting still happens on every request; only the refusal is out of reach.
    throttle: { maxMailsPerAddress: 1e9, maxMailsPerClient: 1e9 }
  })
  await service.addMember("ada", "a long passphrase")
  const timed = async (email: string) => {
    const { status, ms } = await service.call("POST", "/api/v1/auth/password/forgot", { email })
    if (status !== 202) throw new Error(`forgot answered ${status}`)
    // What a request forked runs once the loop turns, as a server's does between network events;
    // alternating which address goes first puts that work after either alike.
    await new Promise((resolve) => setImmediate(resolve))
    return ms * 1000
  }
  const known: Array<number> = []
  const unknown: Array<number> = []
  // Warm both paths, then alternate which goes first, so that drift and the work one leaves behind
  // fall on both alike.
  for (let i = 0; i < 500; i++) await timed(i % 2 === 0 ? "ada@example.com" : `nobody${i}@example.com`)
  for (let i = 0; i < rounds; i++) {
    const order =
      i % 2 === 0
        ? ["ada@example.com", `nobody${i}@example.com`]
        : [`nobody${i}@example.com`, "ada@example.com"]
    for (const email of order) (email === "ada@example.com" ? known : unknown).push(await timed(email))
  }
  await service.dispose()
  if (mail.sent.length === 0) throw new Error("No reset mail went to the known address")
  known.sort((a, b) => a - b)
  unknown.sort((a, b) => a - b)
  return {
    rounds,
    knownMedianUs: percentile(known, 0.5),
    unknownMedianUs: percentile(unknown, 0.5),
    knownP90Us: percentile(known, 0.9),
    unknownP90Us: percentile(unknown, 0.9)
  }
}

export const printForgotTiming = (timing: ForgotTiming) => {
  const row = (label: string, value: number) => `${label.padEnd(26)} ${value.toFixed(1).padStart(8)} µs`
  console.log(
    `\nPassword reset requests, known against unknown address (${timing.rounds} of each, in process):`
  )
  console.log(row("known address, median", timing.knownMedianUs))
  console.log(row("unknown address, median", timing.unknownMedianUs))
  console.log(row("known address, p90", timing.knownP90Us))
  console.log(row("unknown address, p90", timing.unknownP90Us))
  console.log(`median ratio known/unknown: ${(timing.knownMedianUs / timing.unknownMedianUs).toFixed(3)}`)
}

if (import.meta.main) printForgotTiming(await forgotTiming(Number(process.env.ROUNDS ?? 4000)))
