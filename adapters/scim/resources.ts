import { createHash } from "node:crypto"
import { DateTime } from "effect"
import type { ProvisionedGroup, ProvisionedUser } from "../../core/index.ts"
import { groupSchemaId, userSchemaId } from "./urns.ts"

/** A resource as JSON: what SCIM answers, filters, sorts and patches. */
export type Resource = Record<string, unknown> & { readonly id: string; readonly meta: Meta }

interface Meta {
  readonly resourceType: "User" | "Group"
  readonly created: string
  readonly lastModified: string
  readonly location: string
  readonly version: string
}

/** A weak ETag of what the resource shows, so any change to it (through SCIM or not) makes another. */
const versionOf = (shown: object) =>
  `W/"${createHash("sha256").update(JSON.stringify(shown)).digest("base64url").slice(0, 27)}"`

const iso = (instant: DateTime.DateTime) => DateTime.formatIso(instant)

const withMeta = (
  shown: Record<string, unknown> & { readonly id: string },
  resourceType: Meta["resourceType"],
  created: DateTime.DateTime,
  lastModified: DateTime.DateTime | undefined,
  location: string
): Resource => ({
  ...shown,
  meta: {
    resourceType,
    created: iso(created),
    lastModified: iso(lastModified ?? created),
    location,
    version: versionOf(shown)
  }
})

export const userLocation = (base: string, id: string) => `${base}/Users/${encodeURIComponent(id)}`
export const groupLocation = (base: string, id: string) => `${base}/Groups/${encodeURIComponent(id)}`

export const toUserResource = (base: string, { member, profile, role }: ProvisionedUser): Resource =>
  withMeta(
    {
      schemas: [userSchemaId],
      id: member.id,
      ...(profile?.externalId === undefined ? {} : { externalId: profile.externalId }),
      userName: profile?.userName ?? member.username,
      ...(profile?.name === undefined ? {} : { name: profile.name }),
      ...(profile?.displayName === undefined ? {} : { displayName: profile.displayName }),
      emails: [
        {
          value: member.email,
          ...(profile?.emailType === undefined ? {} : { type: profile.emailType }),
          primary: profile?.emailPrimary ?? true
        }
      ],
      active: member.activestatus,
      ...(role === undefined
        ? {}
        : {
            groups: [
              { value: String(role.id), $ref: groupLocation(base, String(role.id)), display: role.name }
            ]
          })
    },
    "User",
    member.createdAt,
    profile?.lastModified,
    userLocation(base, member.id)
  )

export const toGroupResource = (base: string, { role, memberIds, profile }: ProvisionedGroup): Resource => {
  const id = String(role.id)
  return withMeta(
    {
      schemas: [groupSchemaId],
      id,
      ...(profile?.externalId === undefined ? {} : { externalId: profile.externalId }),
      displayName: role.name,
      ...(memberIds.length === 0
        ? {}
        : { members: memberIds.map((memberId) => ({ value: memberId, $ref: userLocation(base, memberId) })) })
    },
    "Group",
    role.createdAt,
    profile?.lastModified,
    groupLocation(base, id)
  )
}
