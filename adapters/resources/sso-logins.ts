import { DateTime, Effect, Layer, Option } from "effect"
import { SpentAssertion, SsoIdentity, SsoLogin, SsoLoginStore } from "../../core/index.ts"
import { RecordKit, refusalIsDefect } from "./records.ts"
import { resource } from "./resource.ts"

/** Sign-ins under way, by their state's digest; the expired ones deleted as new ones begin. */
export const ssoLogins = resource({
  name: "sso_logins",
  schema: SsoLogin,
  key: "stateHash",
  columns: ["stateHash", "expiresAt"],
  indexes: [["expiresAt"]]
})

/** Identities linked to accounts: one account per (connection, subject), its key. */
export const ssoIdentities = resource({
  name: "sso_identities",
  schema: SsoIdentity,
  key: (identity: SsoIdentity) => `${identity.connectionId}/${identity.subject}`,
  columns: ["connectionId", "subject", "accountId", "organizationId"],
  indexes: [["connectionId", "subject"], ["connectionId", "accountId"], ["organizationId"]],
  audit: "member"
})

/** Assertions accepted, by connection and assertion id (their key), kept until they expire. */
export const spentAssertions = resource({
  name: "sso_assertions",
  schema: SpentAssertion,
  key: (spent: SpentAssertion) => `${spent.connectionId}/${spent.assertionId}`,
  columns: ["expiresAt"],
  indexes: [["expiresAt"]]
})

export const ssoLoginStoreLayer = Layer.effect(
  SsoLoginStore,
  Effect.gen(function* () {
    const kit = yield* RecordKit
    const logins = yield* kit.open(ssoLogins)
    const identities = yield* kit.open(ssoIdentities)
    const assertions = yield* kit.open(spentAssertions)
    return SsoLoginStore.of({
      begin: (login) =>
        logins
          .removeAll({ expiresAt: { lte: login.createdAt } })
          .pipe(Effect.andThen(refusalIsDefect(logins.insert(login)))),
      find: (stateHash) => logins.find({ stateHash }),
      take: (stateHash) => logins.remove({ stateHash }),
      prove: (stateHash, proven) =>
        logins
          .modify({ stateHash }, (login) =>
            login.proven === null ? new SsoLogin({ ...login, proven }, { disableChecks: true }) : undefined
          )
          .pipe(
            Effect.map(
              Option.flatMap((change) => (change.changed ? Option.some(change.after) : Option.none()))
            )
          ),
      spend: (spent) =>
        Effect.gen(function* () {
          yield* assertions.removeAll({ expiresAt: { lte: yield* DateTime.now } })
          return yield* assertions
            .insert(spent)
            .pipe(
              Effect.as(true),
              Effect.catchTags({ Taken: () => Effect.succeed(false), Full: (full) => Effect.die(full) })
            )
        }),
      findIdentity: (connectionId, subject) => identities.find({ connectionId, subject }),
      link: (identity, entry) =>
        identities.insert(identity, entry).pipe(
          Effect.as(true),
          Effect.catchTags({
            Taken: () =>
              identities
                .find({ connectionId: identity.connectionId, subject: identity.subject })
                .pipe(Effect.map(Option.exists((linked) => linked.accountId === identity.accountId))),
            Full: (full) => Effect.die(full)
          })
        ),
      linkedAccounts: (connectionId) =>
        identities
          .list({ connectionId }, { by: [] })
          .pipe(Effect.map((linked) => [...new Set(linked.map((identity) => identity.accountId))])),
      unlinkAccount: (connectionId, accountId) => identities.removeAll({ connectionId, accountId })
    })
  })
)
