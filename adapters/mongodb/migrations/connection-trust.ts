import { Effect } from "effect"
import type { Db } from "mongodb"
import { queryWrite } from "../driver.ts"

/**
 * Single sign-on connections kept before they recorded what whoever set what they trust held
 * (`trustCeiling`) record none held: nobody is known to have set them, so they let in nobody new
 * until someone sets their IdP again. Idempotent: a connection that records one keeps it.
 */
export const recordConnectionTrust = (db: Db) =>
  queryWrite(() =>
    db
      .collection<{ _id: string; trustCeiling?: ReadonlyArray<number> }>("sso_connections")
      .updateMany({ trustCeiling: { $exists: false } }, { $set: { trustCeiling: [] } })
  ).pipe(Effect.asVoid)
