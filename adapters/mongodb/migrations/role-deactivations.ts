import { Effect } from "effect"
import type { Db } from "mongodb"
import { queryWrite } from "../driver.ts"

/**
 * Roles inactive when this version first starts were deactivated before roles recorded when: they
 * record it now, so that their holders' sessions stay ended once the role is active again (see
 * `RoleStanding`). Idempotent: a role that records a deactivation keeps it.
 */
export const recordRoleDeactivations = (db: Db) =>
  queryWrite(() =>
    db
      .collection<{ _id: number; activeStatus: boolean; deactivatedAt?: Date }>("roles")
      .updateMany(
        { activeStatus: false, deactivatedAt: { $exists: false } },
        { $set: { deactivatedAt: new Date() } }
      )
  ).pipe(Effect.asVoid)
