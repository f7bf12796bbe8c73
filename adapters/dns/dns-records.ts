import { Resolver } from "node:dns/promises"
import { Effect, Layer } from "effect"
import { DnsRecords } from "../../core/index.ts"

export interface DnsOptions {
  /** `host:port` of the servers to ask (`ROSTER_DNS_SERVERS`); the system's when none. */
  readonly servers?: ReadonlyArray<string>
}

/**
 * TXT records through Node's resolver (Bun and Deno have it too), asking `servers` when given. An
 * answer that does not come, or says there is no such record, is no value. Each lookup has a
 * resolver of its own: Bun's keeps the answers it got, an absent record's included, so a record
 * added after a first try would go unseen (verifying is rare: the resolver costs nothing to make).
 */
export const dnsRecordsLayer = (options: DnsOptions = {}) =>
  Layer.sync(DnsRecords, () => {
    const servers =
      options.servers !== undefined && options.servers.length > 0 ? [...options.servers] : undefined
    const resolver = () => {
      const made = new Resolver({ timeout: 3000, tries: 2 })
      if (servers !== undefined) made.setServers(servers)
      return made
    }
    return DnsRecords.of({
      txt: (name) =>
        Effect.tryPromise(() => resolver().resolveTxt(name)).pipe(
          Effect.map((records) => records.map((strings) => strings.join(""))),
          Effect.orElseSucceed(() => [])
        )
    })
  })
