import { DateTime, Effect, Layer, Option } from "effect"
import { AccountToken, AccountTokenStore } from "../../core/index.ts"

/** The one-time tokens in process memory, by digest; expired ones are dropped as new ones come. */
export const makeAccountTokenStore = Effect.sync(() => {
  const byHash = new Map<string, AccountToken>()
  const take = (purpose: AccountToken["purpose"], tokenHash: string) => {
    const token = byHash.get(tokenHash)
    return token?.purpose === purpose ? token : undefined
  }
  return AccountTokenStore.of({
    issue: (token) =>
      Effect.map(DateTime.now, (now) => {
        for (const [hash, held] of byHash) {
          const replaced = held.accountId === token.accountId && held.purpose === token.purpose
          if (replaced || !DateTime.isLessThan(now, held.expiresAt)) byHash.delete(hash)
        }
        byHash.set(token.tokenHash, token)
      }),
    find: (purpose, tokenHash) => Effect.sync(() => Option.fromNullishOr(take(purpose, tokenHash))),
    spendTry: (purpose, tokenHash) =>
      Effect.sync(() => {
        const token = take(purpose, tokenHash)
        if (token === undefined) return Option.none()
        const left = token.triesLeft - 1
        if (left <= 0) byHash.delete(tokenHash)
        else byHash.set(tokenHash, new AccountToken({ ...token, triesLeft: left }))
        return Option.some(Math.max(left, 0))
      }),
    consume: (purpose, tokenHash) =>
      Effect.sync(() => {
        const token = take(purpose, tokenHash)
        if (token !== undefined) byHash.delete(tokenHash)
        return Option.fromNullishOr(token)
      })
  })
})

export const accountTokenStoreLayer = Layer.effect(AccountTokenStore, makeAccountTokenStore)
