import { type DateTime, Effect, Layer, Option } from "effect"
import {
  type AuditEntry,
  inOrganization,
  maxWebhooks,
  type OrganizationId,
  toWebhook,
  type WebhookId,
  WebhookLimit,
  WebhookRecord,
  WebhookStore
} from "../../core/index.ts"
import { RecordKit, refusalIsDefect } from "./records.ts"
import { deliveries, webhooks } from "./webhook-records.ts"

export const webhookStoreLayer = Layer.effect(
  WebhookStore,
  Effect.gen(function* () {
    const kit = yield* RecordKit
    const endpoints = yield* kit.open(webhooks)
    const sent = yield* kit.open(deliveries)
    const set = (record: WebhookRecord, fields: Partial<WebhookRecord>) =>
      new WebhookRecord({ ...record, ...fields }, { disableChecks: true })
    /** Changes the organisation's endpoint as `fields` say, with `entry`; answers it as changed. */
    const changed = (
      id: WebhookId,
      fields: (record: WebhookRecord) => Partial<WebhookRecord>,
      entry: AuditEntry
    ) =>
      inOrganization((organizationId) =>
        endpoints.modify({ id, organizationId }, (record) => set(record, fields(record)), entry)
      ).pipe(Effect.map(Option.map(({ after }) => toWebhook(after))))
    /** Changes any organisation's endpoint as `change` makes it; answers how it was and is. */
    const tended = (
      id: WebhookId,
      change: (record: WebhookRecord) => WebhookRecord | undefined,
      entry?: AuditEntry
    ) => endpoints.modify({ id }, change, entry)
    return WebhookStore.of({
      insert: (record, entry) =>
        endpoints.insert(record, entry).pipe(
          Effect.catchTag("Full", () => Effect.fail(new WebhookLimit({ limit: maxWebhooks }))),
          refusalIsDefect
        ),
      page: (after, limit) =>
        inOrganization((organizationId) =>
          endpoints.list(
            { organizationId },
            { by: ["createdAt"], ...(after === undefined ? {} : { after }), limit }
          )
        ).pipe(Effect.map((found) => found.map(toWebhook))),
      find: (id) => inOrganization((organizationId) => endpoints.find({ id, organizationId })),
      update: (id, changes, entry) =>
        changed(
          id,
          () => ({ ...changes, ...(changes.enabled === true ? { failingSince: null } : {}) }),
          entry
        ),
      rotate: (id, secret, previous, entry) => changed(id, () => ({ secret, previous }), entry),
      // Its deliveries after it: a stop between leaves some the sender deletes as it meets them.
      remove: (id, entry) =>
        inOrganization((organizationId) => endpoints.remove({ id, organizationId }, entry)).pipe(
          Effect.tap((removed) => (Option.isSome(removed) ? sent.removeAll({ webhookId: id }) : Effect.void)),
          Effect.map(Option.map(toWebhook))
        ),
      enabledOf: (organizationId) => endpoints.list({ organizationId, enabled: true }, { by: ["createdAt"] }),
      organizationsWithEndpoints: endpoints
        .list({}, { by: ["organizationId"] })
        .pipe(
          Effect.map((found) => [...new Set<OrganizationId>(found.map((webhook) => webhook.organizationId))])
        ),
      removeAllOf: (organizationId) =>
        Effect.andThen(endpoints.removeAll({ organizationId }), sent.removeAll({ organizationId })),
      noteFailing: (id, at: DateTime.Utc) =>
        tended(id, (record) =>
          record.failingSince === null ? set(record, { failingSince: at }) : undefined
        ).pipe(
          Effect.map(Option.match({ onNone: () => at, onSome: ({ after }) => after.failingSince ?? at }))
        ),
      noteSuccess: (id) =>
        tended(id, (record) =>
          record.failingSince === null ? undefined : set(record, { failingSince: null })
        ).pipe(Effect.asVoid),
      disable: (id, entry) =>
        tended(id, (record) => (record.enabled ? set(record, { enabled: false }) : undefined), entry).pipe(
          Effect.map(Option.exists(({ changed }) => changed))
        )
    })
  })
)
