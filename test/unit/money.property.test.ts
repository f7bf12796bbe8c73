import { assert, describe, it } from "@effect/vitest"
import { Option } from "effect"
import fc from "fast-check"
import { type Currency, fromMajorUnits, Money, minorUnitExponent, toMajorUnits } from "../../core/index.ts"

const currencies: ReadonlyArray<Currency> = [
  "EUR",
  "USD",
  "GBP",
  "CHF",
  "CAD",
  "AUD",
  "SEK",
  "NOK",
  "DKK",
  "PLN",
  "JPY",
  "KRW",
  "BHD",
  "KWD"
]

/** Whole numbers of minor units up to ten billion euros' worth of cents. */
const minorUnits = fc.integer({ min: 0, max: 1e12 })

const amountOf = (money: Option.Option<Money>): number | undefined =>
  Option.match(money, { onNone: () => undefined, onSome: (value) => value.amountMinor })

describe("fromMajorUnits", () => {
  it("accepts every whole number of cents: k / 100 EUR is k cents", () => {
    fc.assert(
      fc.property(minorUnits, (k) => {
        const money = fromMajorUnits(k / 100, "EUR")
        assert.isTrue(Option.isSome(money), `${k / 100} EUR`)
        assert.strictEqual(amountOf(money), k)
        assert.strictEqual(Option.getOrThrow(money).currency, "EUR")
      })
    )
  })

  it("accepts the usual price literals exactly", () => {
    for (const [price, cents] of [
      [19.99, 1999],
      [0.01, 1],
      [0.1, 10],
      [0.29, 29],
      [1.15, 115],
      [99, 9900],
      [0, 0],
      [4.35, 435],
      [1234567.89, 123456789]
    ] as const) {
      assert.strictEqual(amountOf(fromMajorUnits(price, "EUR")), cents, `${price} EUR`)
    }
  })

  it("JPY (exponent 0) accepts whole yen only", () => {
    fc.assert(
      fc.property(minorUnits, (k) => {
        assert.strictEqual(amountOf(fromMajorUnits(k, "JPY")), k)
      })
    )
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1e9 }), fc.integer({ min: 1, max: 99 }), (k, hundredths) => {
        const price = k + hundredths / 100
        assert.isTrue(Option.isNone(fromMajorUnits(price, "JPY")), `${price} JPY`)
      })
    )
  })

  it("a third decimal is refused for EUR: k / 1000 with k % 10 != 0 is None", () => {
    fc.assert(
      fc.property(
        minorUnits.filter((k) => k % 10 !== 0),
        (k) => {
          assert.isTrue(Option.isNone(fromMajorUnits(k / 1000, "EUR")), `${k / 1000} EUR`)
        }
      )
    )
  })

  it("a third decimal is accepted for BHD (exponent 3)", () => {
    fc.assert(
      fc.property(minorUnits, (k) => {
        assert.strictEqual(amountOf(fromMajorUnits(k / 1000, "BHD")), k)
      })
    )
  })

  it("sums computed in floating point are not rounded into a price", () => {
    assert.isTrue(Option.isNone(fromMajorUnits(0.1 + 0.2, "EUR")))
    assert.isTrue(Option.isNone(fromMajorUnits(10.1 + 9.89, "EUR")))
  })

  it("negative, NaN and infinite prices are None in every currency", () => {
    const invalid = fc.oneof(
      fc.double({ max: -Number.MIN_VALUE, noNaN: true }),
      fc.integer({ min: -1e12, max: -1 }).map((k) => k / 100),
      fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -0.01, -1)
    )
    fc.assert(
      fc.property(invalid, fc.constantFrom(...currencies), (price, currency) => {
        assert.isTrue(Option.isNone(fromMajorUnits(price, currency)), `${price} ${currency}`)
      })
    )
  })

  it("whatever double it is given, an accepted price is exact and within the safe integers", () => {
    fc.assert(
      fc.property(fc.double(), fc.constantFrom(...currencies), (price, currency) => {
        const money = fromMajorUnits(price, currency)
        if (Option.isNone(money)) return
        const { amountMinor } = money.value
        assert.isTrue(Number.isSafeInteger(amountMinor))
        assert.isAtLeast(amountMinor, 0)
        assert.strictEqual(toMajorUnits(money.value), price)
        assert.strictEqual(money.value.currency, currency)
      }),
      { numRuns: 1000 }
    )
  })
})

describe("toMajorUnits", () => {
  it("round-trips through fromMajorUnits for every currency", () => {
    fc.assert(
      fc.property(minorUnits, fc.constantFrom(...currencies), (k, currency) => {
        const money = new Money({ amountMinor: k, currency })
        const major = toMajorUnits(money)
        assert.strictEqual(major, k / 10 ** minorUnitExponent(currency))
        const back = fromMajorUnits(major, currency)
        assert.strictEqual(amountOf(back), k)
      })
    )
  })

  it("knows the minor-unit exponents of the catalog's currencies", () => {
    assert.strictEqual(toMajorUnits(new Money({ amountMinor: 1999, currency: "EUR" })), 19.99)
    assert.strictEqual(toMajorUnits(new Money({ amountMinor: 1999, currency: "JPY" })), 1999)
    assert.strictEqual(toMajorUnits(new Money({ amountMinor: 1999, currency: "KWD" })), 1.999)
  })
})
