import { Effect } from "effect"
import { MemberStore } from "../../core/index.ts"

/** Runs `self` counting the member store's writes. */
export const countingWrites = <A, E, R>(self: Effect.Effect<A, E, R>) =>
  Effect.gen(function* () {
    const members = yield* MemberStore
    const writes: Array<string> = []
    const note = (write: string) => Effect.sync(() => void writes.push(write))
    const result = yield* Effect.provideService(self, MemberStore, {
      ...members,
      update: (...args) => Effect.andThen(note("update"), members.update(...args)),
      updateAccount: (...args) => Effect.andThen(note("account"), members.updateAccount(...args))
    })
    return { result, writes }
  })
