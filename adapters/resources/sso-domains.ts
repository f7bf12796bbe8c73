import { Effect, Layer, Option } from "effect"
import { DomainStore, DomainTaken, inOrganization, SsoDomainRecord } from "../../core/index.ts"
import { RecordKit, refusalIsDefect } from "./records.ts"
import { resource } from "./resource.ts"

/**
 * Domains organisations claim. `claim` is unique: the organisation and the domain while pending,
 * so an organisation claims a domain once; the domain alone once verified, so one organisation
 * holds it verified, whatever the number of instances.
 */
export const ssoDomains = resource({
  name: "sso_domains",
  schema: SsoDomainRecord,
  key: "id",
  columns: ["id", "organizationId", "domain", "status", "createdAt", "claim"],
  derived: {
    claim: (record) =>
      record.status === "verified" ? `verified/${record.domain}` : `${record.organizationId}/${record.domain}`
  },
  unique: [["claim"]],
  indexes: [["organizationId", "createdAt"]],
  audit: "domain"
})

const taken = (domain: string) => () => Effect.fail(new DomainTaken({ domain }))

export const domainStoreLayer = Layer.effect(
  DomainStore,
  Effect.gen(function* () {
    const domains = yield* (yield* RecordKit).open(ssoDomains)
    return DomainStore.of({
      insert: (record, entry) =>
        refusalIsDefect(domains.insert(record, entry).pipe(Effect.catchTag("Taken", taken(record.domain)))),
      page: (after, limit) =>
        inOrganization((organizationId) =>
          domains.list(
            { organizationId },
            { by: ["createdAt"], ...(after === undefined ? {} : { after }), limit }
          )
        ),
      find: (id) => inOrganization((organizationId) => domains.find({ id, organizationId })),
      findVerified: (domain) => domains.find({ claim: `verified/${domain}` }),
      markVerified: (verified, entry) =>
        domains
          .modifyOrTaken({ id: verified.id, organizationId: verified.organizationId }, () => verified, entry)
          .pipe(
            Effect.catchTag("Taken", taken(verified.domain)),
            Effect.map(Option.map(({ after }) => after))
          ),
      remove: (id, entry) =>
        inOrganization((organizationId) => domains.remove({ id, organizationId }, entry)),
      removeAll: inOrganization((organizationId) => domains.removeAll({ organizationId }))
    })
  })
)
