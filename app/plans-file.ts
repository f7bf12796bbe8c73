import { readFile } from "node:fs/promises"
import { fileURLToPath } from "node:url"
import { Effect, Schema } from "effect"
import { Plan } from "../core/index.ts"
import { StartupError } from "./startup-error.ts"

/** The catalog that ships, used when `ROSTER_PLANS_FILE` names none. */
export const defaultPlansFile = fileURLToPath(new URL("../config/plans.json", import.meta.url))

const PlansFile = Schema.fromJsonString(
  Schema.Array(Plan).check(
    Schema.isMinLength(1),
    Schema.makeFilter(
      (plans) => new Set(plans.map((plan) => plan.planId)).size === plans.length || "planIds must be unique"
    )
  )
)

const decodePlans = Schema.decodeUnknownEffect(PlansFile, { errors: "all" })

/** Reads and checks the plan catalog: prices are integer minor units with an ISO currency. */
export const loadPlans = (path: string) =>
  Effect.tryPromise({
    try: () => readFile(path, "utf8"),
    catch: (cause) => new StartupError({ message: `Cannot read the plans file ${path}: ${String(cause)}` })
  }).pipe(
    Effect.flatMap(decodePlans),
    Effect.mapError((error) =>
      error._tag === "StartupError"
        ? error
        : new StartupError({ message: `The plans file ${path} is not valid:\n${error.message}` })
    )
  )
