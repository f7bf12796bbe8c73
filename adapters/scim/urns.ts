export const userSchemaId = "urn:ietf:params:scim:schemas:core:2.0:User"
export const groupSchemaId = "urn:ietf:params:scim:schemas:core:2.0:Group"
export const listResponseId = "urn:ietf:params:scim:api:messages:2.0:ListResponse"
export const patchOpId = "urn:ietf:params:scim:api:messages:2.0:PatchOp"
export const searchRequestId = "urn:ietf:params:scim:api:messages:2.0:SearchRequest"

const corePrefix = /^urn:ietf:params:scim:schemas:core:2\.0:(user|group):/iu

/** An attribute path without the core schema's URN it may be written with (`…:User:userName`). */
export const withoutCoreSchema = (path: string) => path.replace(corePrefix, "")
