import { Effect, Layer, Schedule } from "effect"
import {
  ensureSigningKey,
  inEveryOrganization,
  keepSeatsInStep,
  masterPrincipal,
  SecretBox,
  setUpOrganizations,
  syncPermissions
} from "../core/index.ts"
import { eventSender } from "./event-sender.ts"
import { jsonLogger } from "./log-lines.ts"
import type { PermissionEntry } from "./permissions-file.ts"

/**
 * Seats follow every member change; should the provider have failed then, they catch up here, in
 * every organisation, at start and every few minutes (nothing is written or called when they are in step).
 */
const seatReconciliation = Layer.effectDiscard(
  Effect.forkScoped(
    inEveryOrganization(() => keepSeatsInStep).pipe(
      Effect.catchCause((cause) =>
        Effect.logWarning("Seats not brought in step: the organisations could not be read", cause)
      ),
      Effect.repeat(Schedule.spaced("5 minutes"))
    )
  )
).pipe(Layer.provide(jsonLogger))

/** Every organisation's Owner role holds the whole catalog before the first request (see `setUpOrganizations`). */
const organizationSetUp = Layer.effectDiscard(setUpOrganizations)

/**
 * The first key access tokens are signed with, made at the first start (one, however many
 * instances start together), where there is a key to seal it under.
 */
const signingKeySetUp = Layer.effectDiscard(
  SecretBox.use((box) => (box.sealing ? Effect.asVoid(ensureSigningKey) : Effect.void))
)

/**
 * The product permissions `ROSTER_PERMISSIONS_FILE` lists, declared before the first request at
 * every start (idempotently, so every instance may; none retired: retiring is explicit).
 */
const permissionsDeclared = (entries: ReadonlyArray<PermissionEntry>) =>
  Layer.effectDiscard(
    Effect.asVoid(syncPermissions(masterPrincipal, entries)).pipe(
      Effect.tap(() =>
        entries.length === 0
          ? Effect.void
          : Effect.logInfo(`permissions: ${entries.length} declared from the file`)
      )
    )
  ).pipe(Layer.provide(jsonLogger))

/** What the service does besides answering: set up at start, then seats and events in the background. */
export const backgroundWork = (permissions: ReadonlyArray<PermissionEntry>) =>
  Layer.mergeAll(
    permissionsDeclared(permissions),
    seatReconciliation,
    organizationSetUp,
    signingKeySetUp,
    eventSender.pipe(Layer.provide(jsonLogger))
  )
