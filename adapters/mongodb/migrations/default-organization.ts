import { DateTime, Effect } from "effect"
import type { Db } from "mongodb"
import { defaultOrganizationId, defaultOrganizationSlug } from "../../../core/index.ts"
import { organizations, StoredOrganization } from "../../resources/organizations.ts"
import { attemptWrite, queryWrite } from "../driver.ts"
import { documentsOf } from "../kit-documents.ts"

/** The collections whose documents belong to an organisation. */
const owned = ["members", "roles", "role_permissions", "subscriptions", "sessions", "audit_events"]

/**
 * Creates the default organisation when it is missing, and moves what was stored before
 * organisations existed into it. Every step is one idempotent write (an upsert that only inserts, an
 * update of the documents that name no organisation), so two instances starting together, or one
 * stopped halfway, leave the same result.
 */
export const moveIntoDefaultOrganization = (db: Db) =>
  Effect.gen(function* () {
    const { _id, ...fields } = documentsOf(organizations).toDocument(
      new StoredOrganization({
        id: defaultOrganizationId,
        name: "Default",
        slug: defaultOrganizationSlug,
        createdAt: yield* DateTime.now
      })
    )
    // Two instances upserting at once: the loser's insert meets the winner's document.
    yield* attemptWrite(() =>
      db.collection(organizations.name).updateOne({ _id }, { $setOnInsert: fields }, { upsert: true })
    ).pipe(Effect.catchTag("DuplicateKey", () => Effect.void))
    for (const collection of owned) {
      yield* queryWrite(() =>
        db
          .collection(collection)
          .updateMany(
            { organizationId: { $exists: false } },
            { $set: { organizationId: defaultOrganizationId } }
          )
      )
    }
  })
