import { bulkOff, maxResults } from "./limits.ts"
import { groupSchemaId, userSchemaId } from "./urns.ts"

const attribute = (
  name: string,
  more: {
    readonly type?: string
    readonly multiValued?: boolean
    readonly required?: boolean
    readonly caseExact?: boolean
    readonly mutability?: string
    readonly returned?: string
    readonly uniqueness?: string
    readonly subAttributes?: ReadonlyArray<object>
    readonly referenceTypes?: ReadonlyArray<string>
    readonly description?: string
  } = {}
) => ({
  name,
  type: more.type ?? "string",
  multiValued: more.multiValued ?? false,
  description: more.description ?? name,
  required: more.required ?? false,
  caseExact: more.caseExact ?? false,
  mutability: more.mutability ?? "readWrite",
  returned: more.returned ?? "default",
  uniqueness: more.uniqueness ?? "none",
  ...(more.subAttributes === undefined ? {} : { subAttributes: more.subAttributes }),
  ...(more.referenceTypes === undefined ? {} : { referenceTypes: more.referenceTypes })
})

const nameParts = ["formatted", "familyName", "givenName", "middleName", "honorificPrefix", "honorificSuffix"]

/** What Roster keeps of a user: attributes it does not list are ignored when sent. */
const userAttributes = [
  attribute("userName", {
    required: true,
    uniqueness: "server",
    description: "The identity provider's name for the person: unique in the organisation, ignoring case"
  }),
  attribute("name", { type: "complex", subAttributes: nameParts.map((part) => attribute(part)) }),
  attribute("displayName"),
  attribute("emails", {
    type: "complex",
    multiValued: true,
    required: true,
    description:
      "The member's e-mail address: Roster keeps one, the primary; a userName that is an e-mail address stands in when none is sent",
    subAttributes: [
      attribute("value", { required: true }),
      attribute("type"),
      attribute("primary", { type: "boolean" })
    ]
  }),
  attribute("active", {
    type: "boolean",
    required: true,
    description:
      "Whether the membership is active (true when a new user is sent without it): false ends sessions"
  }),
  attribute("password", { mutability: "writeOnly", returned: "never", caseExact: true }),
  attribute("groups", {
    type: "complex",
    multiValued: true,
    mutability: "readOnly",
    description: "The member's role, as the one group holding them",
    subAttributes: [
      attribute("value", { mutability: "readOnly" }),
      attribute("$ref", { type: "reference", referenceTypes: ["Group"], mutability: "readOnly" }),
      attribute("display", { mutability: "readOnly" })
    ]
  })
]

const groupAttributes = [
  attribute("displayName", { required: true, description: "The role's name" }),
  attribute("members", {
    type: "complex",
    multiValued: true,
    description: "The members holding the role; a member holds one role, so joining moves them",
    subAttributes: [
      attribute("value", { mutability: "immutable", caseExact: true }),
      attribute("$ref", { type: "reference", referenceTypes: ["User"], mutability: "immutable" })
    ]
  })
]

const schemaDocument = (id: string, name: string, attributes: ReadonlyArray<object>, base: string) => ({
  schemas: ["urn:ietf:params:scim:schemas:core:2.0:Schema"],
  id,
  name,
  description: `${name} of the organisation`,
  attributes,
  meta: { resourceType: "Schema", location: `${base}/Schemas/${id}` }
})

const resourceType = (name: string, endpoint: string, schema: string, base: string) => ({
  schemas: ["urn:ietf:params:scim:schemas:core:2.0:ResourceType"],
  id: name,
  name,
  endpoint,
  description: name === "User" ? "The organisation's members" : "The organisation's roles",
  schema,
  schemaExtensions: [],
  meta: { resourceType: "ResourceType", location: `${base}/ResourceTypes/${name}` }
})

const listOf = (resources: ReadonlyArray<object>) => ({
  schemas: ["urn:ietf:params:scim:api:messages:2.0:ListResponse"],
  totalResults: resources.length,
  itemsPerPage: resources.length,
  startIndex: 1,
  Resources: resources
})

/** The discovery documents of a service at `base` (`…/scim/v2`), made once. */
export const discoveryAt = (base: string) => {
  const schemas = [
    schemaDocument(userSchemaId, "User", userAttributes, base),
    schemaDocument(groupSchemaId, "Group", groupAttributes, base)
  ]
  const resourceTypes = [
    resourceType("User", "/Users", userSchemaId, base),
    resourceType("Group", "/Groups", groupSchemaId, base)
  ]
  return {
    serviceProviderConfig: {
      schemas: ["urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig"],
      patch: { supported: true },
      bulk: bulkOff,
      filter: { supported: true, maxResults },
      changePassword: { supported: true },
      sort: { supported: true },
      etag: { supported: true },
      authenticationSchemes: [
        {
          type: "oauthbearertoken",
          name: "SCIM token",
          description: "A token from POST /api/v1/organization/scim-tokens, sent as Authorization: Bearer",
          primary: true
        }
      ],
      meta: { resourceType: "ServiceProviderConfig", location: `${base}/ServiceProviderConfig` }
    },
    schemas: listOf(schemas),
    schemaById: new Map(schemas.map((schema) => [schema.id, schema])),
    resourceTypes: listOf(resourceTypes),
    resourceTypeById: new Map(resourceTypes.map((type) => [type.id, type]))
  }
}
export type Discovery = ReturnType<typeof discoveryAt>
