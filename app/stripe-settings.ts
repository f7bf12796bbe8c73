import { Config, Duration, Effect, Option } from "effect"
import type { StripeProviderOptions } from "../adapters/payments/stripe-options.ts"
import { isFree, type Plan } from "../core/index.ts"
import { readEnvironment, refuse } from "./startup-error.ts"

const environment = Config.all({
  secretKey: Config.Redacted("STRIPE_SECRET_KEY").pipe(Config.option),
  apiUrl: Config.URL("STRIPE_API_URL").pipe(Config.option),
  successUrl: Config.URL("ROSTER_CHECKOUT_SUCCESS_URL").pipe(Config.option),
  cancelUrl: Config.URL("ROSTER_CHECKOUT_CANCEL_URL").pipe(Config.option),
  timeout: Config.Duration("ROSTER_PROVIDER_TIMEOUT").pipe(Config.withDefault(Duration.seconds(10)))
})

const isWeb = (url: URL) => url.protocol === "https:" || url.protocol === "http:"

/** An absolute http(s) address the setting must have once a key is set. */
const requiredUrl = (name: string, value: Option.Option<URL>) =>
  Option.match(Option.filter(value, isWeb), {
    onNone: () => refuse(`${name} must be set to an http(s) address when STRIPE_SECRET_KEY is set`),
    onSome: (url) => Effect.succeed(url.href)
  })

/**
 * Stripe as the payment provider when `STRIPE_SECRET_KEY` is set; none otherwise. With a key, the
 * checkout's return addresses and a Stripe price for every paid plan are required at start, not
 * discovered by the first customer.
 */
export const loadStripeSettings = (plans: ReadonlyArray<Plan>) =>
  Effect.gen(function* () {
    const env = yield* readEnvironment(environment)
    if (Option.isNone(env.secretKey)) return Option.none<StripeProviderOptions>()
    const unpriced = plans.filter((plan) => !isFree(plan.price) && plan.providerPriceId === undefined)
    if (unpriced.length > 0) {
      return yield* refuse(
        `STRIPE_SECRET_KEY is set, but the paid plans ${unpriced.map((plan) => plan.planId).join(", ")} ` +
          "have no stripePriceId in the plans file: checkout would not know what to charge"
      )
    }
    if (Option.isSome(env.apiUrl) && !isWeb(env.apiUrl.value)) {
      return yield* refuse("STRIPE_API_URL must be an http(s) address")
    }
    if (
      Duration.isLessThan(env.timeout, Duration.seconds(1)) ||
      Duration.isGreaterThan(env.timeout, Duration.minutes(1))
    ) {
      return yield* refuse("ROSTER_PROVIDER_TIMEOUT must be between 1 second and 1 minute, e.g. `10 seconds`")
    }
    return Option.some<StripeProviderOptions>({
      secretKey: env.secretKey.value,
      apiUrl: Option.getOrUndefined(env.apiUrl),
      successUrl: yield* requiredUrl("ROSTER_CHECKOUT_SUCCESS_URL", env.successUrl),
      cancelUrl: yield* requiredUrl("ROSTER_CHECKOUT_CANCEL_URL", env.cancelUrl),
      timeout: env.timeout
    })
  })
