import { DateTime, Effect, Option } from "effect"
import { isActiveMember } from "../../model/member.ts"
import { isInForce, type Subscription } from "../../model/subscription.ts"
import { MemberStore } from "../../ports/member-store.ts"
import { PaymentProvider } from "../../ports/payment-provider.ts"
import { SubscriptionStore } from "../../ports/subscription-store.ts"
import { updateSubscription, withFields } from "./subscription-writes.ts"

/** The seats a per-seat plan bills: the members who can act, and at least one. */
export const countSeats = MemberStore.use((members) => members.countActive).pipe(
  Effect.map((active) => Math.max(1, active))
)

const billsSeats = (subscription: Subscription) => isInForce(subscription) && subscription.seats !== undefined

/**
 * Brings the seat count of the per-seat subscription in force in step with the members who can act,
 * here and at the provider; when it already is, nothing is written and nothing is called. Counted
 * again on every attempt, and once a call was made, made again after a lost race, so that the last
 * write is also the last quantity the provider was told.
 */
export const syncSeats = Effect.gen(function* () {
  const target = (yield* (yield* SubscriptionStore).listOpen).find(billsSeats)
  if (target === undefined) return
  const provider = yield* PaymentProvider
  let called = false
  yield* updateSubscription(
    undefined,
    target,
    Effect.fnUntraced(function* (current) {
      if (!billsSeats(current)) return Option.none()
      const seats = yield* countSeats
      if (seats === current.seats && !called) return Option.none()
      const { providerSubscriptionId } = current
      if (providerSubscriptionId !== undefined) {
        yield* provider.setSeats(
          { subscriptionId: current.id, providerSubscriptionId },
          seats,
          current.version
        )
        called = true
      }
      return Option.some({ next: withFields(current, yield* DateTime.now, { seats }), result: undefined })
    }),
    () => undefined
  )
})

/**
 * `syncSeats` after a change that may have moved the count. The change itself is done by then, so
 * a provider or store that fails here does not undo it: the seats catch up at the next change or
 * the next periodic reconciliation.
 */
export const keepSeatsInStep = syncSeats.pipe(
  Effect.catchCause((cause) => Effect.logWarning("Seats not brought in step with the provider", cause))
)

type MemberState = Parameters<typeof isActiveMember>[0]

const counted = (member: MemberState | undefined) => member !== undefined && isActiveMember(member)

/**
 * After a member was added (`before` undefined), changed or removed (`after` undefined): the seats
 * kept in step when the member joined or left those who can act. Every member change ends here.
 */
export const seatsAfterMemberChange = (before: MemberState | undefined, after: MemberState | undefined) =>
  // Stryker disable next-line ConditionalExpression: only spares a read; syncing seats that did not move changes and calls nothing
  counted(before) === counted(after) ? Effect.void : keepSeatsInStep
