import { assert } from "@effect/vitest"
import { Result } from "effect"
import { Forbidden, NotFound, type PermissionKey } from "../../core/index.ts"

/** Asserts that `error` is a Forbidden for `reason`, and narrows it so the caller can check the details. */
export function assertForbidden(error: unknown, reason: Forbidden["reason"]): asserts error is Forbidden {
  assert.instanceOf(error, Forbidden)
  assert.strictEqual(error.reason, reason)
}

/** Asserts that `error` refuses the caller for lacking `permission`. */
export const assertMissingPermission = (error: unknown, permission: PermissionKey) => {
  assertForbidden(error, "missing_permission")
  assert.strictEqual(error.permission, permission)
}

/** Asserts that `error` is a NotFound naming `entity` and `id`. */
export const assertNotFound = (error: unknown, entity: NotFound["entity"], id: string) => {
  assert.instanceOf(error, NotFound)
  assert.strictEqual(error.entity, entity)
  assert.strictEqual(error.id, id)
}

/**
 * Asserts that exactly one of racing attempts succeeded and every other one lost with `loser`;
 * returns what the winner produced.
 */
export const assertSingleWinner = <A, E>(
  results: ReadonlyArray<Result.Result<A, E>>,
  loser: new (...args: never) => unknown
): A => {
  const winners = results.filter(Result.isSuccess)
  const losers = results.filter(Result.isFailure)
  assert.lengthOf(winners, 1)
  assert.lengthOf(losers, results.length - 1)
  for (const failure of losers) assert.instanceOf(failure.failure, loser)
  const [winner] = winners
  if (winner === undefined) return assert.fail("no attempt won")
  return winner.success
}
