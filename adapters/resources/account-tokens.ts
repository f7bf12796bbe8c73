import { Effect, Layer, Option } from "effect"
import { AccountToken, AccountTokenStore, unknownSessionEpoch } from "../../core/index.ts"
import { RecordKit, refusalIsDefect } from "./records.ts"
import { resource } from "./resource.ts"

/**
 * One-time tokens of accounts, one per account and purpose (its key), so a new one replaces the
 * old in one write; found by digest. Expired ones are deleted as new ones come.
 */
export const accountTokens = resource({
  name: "account_tokens",
  schema: AccountToken,
  key: (token: AccountToken) => `${token.accountId}/${token.purpose}`,
  columns: ["tokenHash", "purpose", "expiresAt"],
  unique: [["tokenHash"]],
  indexes: [["expiresAt"]],
  // Tokens stored before challenges had tries (a mailed link, used once), or before they carried
  // an epoch (worth nothing).
  earlier: (stored) => ({ triesLeft: 1, sessionEpoch: unknownSessionEpoch, ...stored })
})

export const accountTokenStoreLayer = Layer.effect(
  AccountTokenStore,
  Effect.gen(function* () {
    const tokens = yield* (yield* RecordKit).open(accountTokens)
    return AccountTokenStore.of({
      issue: (token) =>
        tokens
          .removeAll({ expiresAt: { lte: token.createdAt } })
          .pipe(Effect.andThen(refusalIsDefect(tokens.put(token)))),
      find: (purpose, tokenHash) => tokens.find({ tokenHash, purpose }),
      spendTry: (purpose, tokenHash) =>
        Effect.gen(function* () {
          const spent = yield* tokens.modify(
            { tokenHash, purpose },
            (token) => new AccountToken({ ...token, triesLeft: token.triesLeft - 1 }, { disableChecks: true })
          )
          if (Option.isNone(spent)) return Option.none()
          const left = spent.value.after.triesLeft
          if (left <= 0) yield* tokens.remove({ tokenHash, purpose })
          return Option.some(Math.max(left, 0))
        }),
      consume: (purpose, tokenHash) => tokens.remove({ tokenHash, purpose })
    })
  })
)
