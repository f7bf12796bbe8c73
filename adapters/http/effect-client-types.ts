import type { Schema } from "effect"
import type { HttpApi, HttpApiClient, HttpApiEndpoint, HttpApiGroup, HttpApiSchema } from "effect/http-api"
import type { PermissionKey } from "../../core/index.ts"
import type { RosterApi } from "./api/roster-api.ts"
import type { PermissionField } from "./promise-client-types.ts"

/** A permission field's value: a key there is Roster's or the product's (`P`); an id stays an id. */
type Named<T, P extends string> =
  T extends ReadonlyArray<infer Item>
    ? ReadonlyArray<Named<Item, P>>
    : T extends string
      ? PermissionKey | P
      : T

/** The fields of `T` that are lists of objects naming permissions (`authorize`'s `checks`, its `results`). */
type ListsNaming<T> = {
  [K in keyof T]-?: NonNullable<T[K]> extends ReadonlyArray<infer Item>
    ? [Extract<keyof Item, PermissionField>] extends [never]
      ? never
      : K
    : never
}[keyof T]

/**
 * A value whose permission fields, its own or its lists' items', name Roster's keys or the
 * product's. Only an object naming permissions so is rebuilt: secrets, instants and the rest stay
 * as they are.
 */
type Keyed<T, P extends string> = T extends string | number | boolean | bigint | symbol | null | undefined
  ? T
  : T extends ReadonlyArray<infer Item>
    ? ReadonlyArray<Keyed<Item, P>>
    : [Extract<keyof T, PermissionField> | ListsNaming<T>] extends [never]
      ? T
      : { readonly [K in keyof T]: K extends PermissionField ? Named<T[K], P> : Keyed<T[K], P> }

/**
 * What a request's part takes, narrowed: the declared schema still (so that the client encodes it
 * as the server decodes it), its value typed as a key of either catalog where a permission goes.
 */
type Asked<S extends Schema.Constraint, P extends string> = S & { readonly Type: Keyed<S["Type"], P> }

/** What an answer holds, its permission fields keys of either catalog; a list's pages as declared. */
type Answered<S extends Schema.Constraint, P extends string> =
  S extends HttpApiSchema.WithHeaders<infer _Body, infer _Headers>
    ? S
    : Omit<S, "Type"> & { readonly Type: Keyed<S["Type"], P> }

type KeyedEndpoint<E extends HttpApiEndpoint.ConstraintRequest, P extends string> = Omit<
  E,
  "~Params" | "~Query" | "~Payload" | "~Success"
> & {
  readonly "~Params": Asked<E["~Params"], P>
  readonly "~Query": Asked<E["~Query"], P>
  readonly "~Payload": Asked<E["~Payload"], P>
  readonly "~Success": Answered<E["~Success"], P>
}

type KeyedGroup<G, P extends string> = G extends HttpApiGroup.Constraint
  ? Omit<G, "endpoints"> & {
      readonly endpoints: {
        readonly [K in keyof G["endpoints"]]: G["endpoints"][K] extends HttpApiEndpoint.ConstraintRequest
          ? KeyedEndpoint<G["endpoints"][K], P>
          : G["endpoints"][K]
      }
    }
  : never

type Groups = typeof RosterApi extends HttpApi.HttpApi<infer _Id, infer Groups> ? Groups : never

/**
 * Every endpoint of the HTTP API as a typed method, grouped as the API is: `client.team.addRole(...)`.
 * `P` is the product's own permission keys (`"projects.delete" | "invoices:read"`): wherever a
 * request names a permission by key, one of Roster's or of `P` compiles and a typo does not, and an
 * answer's permission fields are typed so; any string by default.
 */
export type RosterClient<P extends string = string & {}> = HttpApiClient.Client<
  Extract<KeyedGroup<Groups, P>, HttpApiGroup.Constraint>
>
