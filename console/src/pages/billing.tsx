import { allows, type Me, roster } from "../api.ts"
import { ConfirmButton, Section, Table, when } from "../components/controls.tsx"
import { ProblemAlert } from "../components/problem-alert.tsx"
import { useAction, useLoad } from "../use-call.ts"

const money = (amount: number, currency: string) =>
  new Intl.NumberFormat(undefined, { style: "currency", currency: currency.toUpperCase() }).format(amount)

type Plan = Awaited<ReturnType<typeof roster.pricing.listPlans>>[number]

/** A price with what it buys: per seat, and how often it is charged, as its plan says. */
const priceOf = (amount: number, currency: string, plan: Plan | undefined) =>
  `${money(amount, currency)}${plan?.perSeat === true ? " per seat" : ""}${plan?.interval === undefined ? "" : ` a ${plan.interval}`}`

/** The plans and the organisation's subscription: subscribe (at the provider's checkout), cancel. */
export const Billing = ({ me }: { readonly me: Me }) => {
  const plans = useLoad(() => roster.pricing.listPlans())
  const current = useLoad(() =>
    roster.pricing.currentSubscription().catch((error: unknown) => {
      if ((error as { status?: number }).status === 404) return undefined
      throw error
    })
  )
  const subscribe = useAction(
    (plan: { readonly planId: string; readonly planName: string; readonly price: number }) =>
      roster.pricing.subscribe(plan),
    (subscription) => {
      // A paid plan waits for its payment at the provider's checkout.
      if (subscription.checkoutUrl !== undefined) location.assign(subscription.checkoutUrl)
      else current.reload()
    }
  )
  const cancel = useAction(() => roster.pricing.cancelSubscription(), current.reload)
  const subscription = current.data
  return (
    <>
      <Section title="Subscription">
        <ProblemAlert outcome={current} />
        {subscription === undefined ? (
          <p>No subscription.</p>
        ) : (
          <dl>
            <dt>Plan</dt>
            <dd>{subscription.planName}</dd>
            <dt>Status</dt>
            <dd>{subscription.status}</dd>
            <dt>Price</dt>
            <dd>
              {priceOf(
                subscription.price,
                subscription.currency,
                plans.data?.find((plan) => plan.planId === subscription.planId)
              )}
            </dd>
            <dt>Ends</dt>
            <dd>{when(subscription.cancelAt)}</dd>
          </dl>
        )}
        {subscription !== undefined &&
        subscription.status !== "canceled" &&
        allows(me, "pricing.cancelSubscription") ? (
          <ConfirmButton
            label="Cancel the subscription"
            question="Cancel the subscription?"
            consequence="It ends at the end of the period paid for where a payment provider charges it, else at once; nothing more is charged, and the organisation keeps its members."
            action="Cancel the subscription"
            onConfirm={cancel.run}
            disabled={cancel.busy}
          />
        ) : null}
        <ProblemAlert outcome={cancel} />
      </Section>
      <Section title="Plans">
        <ProblemAlert outcome={plans} />
        <ProblemAlert outcome={subscribe} />
        <Table
          caption="Plans"
          columns={["Plan", "Price"]}
          actions
          empty="none in the catalog. The operator lists plans in the file ROSTER_PLANS_FILE names."
        >
          {(plans.data ?? []).map((plan) => (
            <tr key={plan.planId}>
              <td>{plan.planName}</td>
              <td>{priceOf(plan.price, plan.currency, plan)}</td>
              <td>
                {allows(me, "pricing.subscribe") ? (
                  <button type="button" disabled={subscribe.busy} onClick={() => subscribe.run(plan)}>
                    Subscribe to {plan.planName}
                  </button>
                ) : null}
              </td>
            </tr>
          ))}
        </Table>
      </Section>
    </>
  )
}
