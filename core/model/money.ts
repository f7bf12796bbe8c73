import { Option, Schema } from "effect"

/** ISO 4217 currencies the plan catalog may use, with their minor-unit exponents. */
const minorUnitExponents = {
  EUR: 2,
  USD: 2,
  GBP: 2,
  CHF: 2,
  CAD: 2,
  AUD: 2,
  SEK: 2,
  NOK: 2,
  DKK: 2,
  PLN: 2,
  JPY: 0,
  KRW: 0,
  BHD: 3,
  KWD: 3
} as const

export const Currency = Schema.Literals(
  Object.keys(minorUnitExponents) as Array<keyof typeof minorUnitExponents>
)
export type Currency = typeof Currency.Type

export const MinorUnits = Schema.Int.check(
  Schema.isGreaterThanOrEqualTo(0),
  Schema.isLessThanOrEqualTo(Number.MAX_SAFE_INTEGER)
)

// Stryker disable next-line StringLiteral: the identifier only names the class in JSON Schema documents, and no published one holds this class
export class Money extends Schema.Class<Money>("roster/Money")({
  amountMinor: MinorUnits,
  currency: Currency
}) {}

export const minorUnitExponent = (currency: Currency): number => minorUnitExponents[currency]

/**
 * Converts a price in major units (as clients send it) to minor units, exactly.
 * A price is accepted only when it is the nearest double to some whole number of
 * minor units, so 19.99 is 1999 cents while 19.999 or 0.1 + 0.2 are rejected
 * rather than silently rounded.
 */
export const fromMajorUnits = (price: number, currency: Currency): Option.Option<Money> => {
  if (!Number.isFinite(price) || price < 0) return Option.none()
  const scale = 10 ** minorUnitExponent(currency)
  const amountMinor = Math.round(price * scale)
  if (!Number.isSafeInteger(amountMinor) || amountMinor / scale !== price) return Option.none()
  return Option.some(new Money({ amountMinor, currency }))
}

export const toMajorUnits = (money: Money): number =>
  money.amountMinor / 10 ** minorUnitExponent(money.currency)

export const isFree = (money: Money): boolean => money.amountMinor === 0
