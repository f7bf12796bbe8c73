import { Context, type Effect } from "effect"

/** The DNS, as proving a domain reads it. */
export class DnsRecords extends Context.Service<
  DnsRecords,
  {
    /** The TXT values at `name` (each record's strings joined); none when there is none or no answer. */
    readonly txt: (name: string) => Effect.Effect<ReadonlyArray<string>>
  }
>()("roster/core/ports/DnsRecords") {}
