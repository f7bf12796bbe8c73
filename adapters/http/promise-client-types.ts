import type { Brand, DateTime, Redacted, Schema } from "effect"
import type { HttpApi, HttpApiGroup, HttpApiSchema } from "effect/http-api"
import type { AuthorizationReason, PermissionKey } from "../../core/index.ts"
import type { RosterApi } from "./api/roster-api.ts"

type Simplify<A> = { [K in keyof A]: A[K] } & {}

/**
 * A value as JSON carries it, as a caller without Effect writes and reads it: brands dropped,
 * instants as RFC 3339 strings, a secret as its text, and Roster's permission keys widened by the
 * product's own (`P`), which roles grant alike.
 */
type AsJson<T, P extends string> = T extends PermissionKey
  ? PermissionKey | P
  : T extends Redacted.Redacted<infer A>
    ? AsJson<A, P>
    : T extends DateTime.DateTime
      ? string
      : T extends Brand.Brand<string>
        ? T extends string
          ? string
          : T extends number
            ? number
            : T
        : T extends ReadonlyArray<infer Item>
          ? ReadonlyArray<AsJson<Item, P>>
          : T extends object
            ? { [K in keyof T]: K extends PermissionField ? AsPermission<T[K], P> : AsJson<T[K], P> }
            : T

/** The fields a request or an answer names permissions in, by id or by key: a key there is Roster's or the product's. */
export type PermissionField = "permission" | "permissions" | "permissionId"

type AsPermission<T, P extends string> =
  T extends ReadonlyArray<infer Item>
    ? ReadonlyArray<AsPermission<Item, P>>
    : T extends string
      ? PermissionKey | P
      : AsJson<T, P>

/** The schema an endpoint declared, under the codec HttpApi wraps it in. */
type Declared<S> =
  S extends Schema.toCodecJson<infer Inner>
    ? Declared<Inner>
    : S extends Schema.toCodecStringTree<infer Inner>
      ? Declared<Inner>
      : S extends HttpApiSchema.WithHeaders<infer Body, infer _Headers>
        ? Declared<Body>
        : S

/** The JSON form of the schema at `Part` of an endpoint; nothing when the endpoint has no such part. */
type Part<E, Part extends "~Params" | "~Query" | "~Payload" | "~Success", P extends string> = E extends {
  readonly [K in Part]: infer S
}
  ? [S] extends [never]
    ? {}
    : Declared<S> extends Schema.Top
      ? AsJson<Declared<S>["Type"], P>
      : {}
  : {}

type Groups = typeof RosterApi extends HttpApi.HttpApi<infer _Id, infer Groups> ? Groups : never

/** The one object a method takes: its path parameters, query and body fields together. */
export type InputOf<E, P extends string = never> = Simplify<
  Part<E, "~Params", P> & QueryOf<Part<E, "~Query", P>> & Part<E, "~Payload", P>
>

/** A list's query, its cursor as the opaque text a page gives (`next`). */
type QueryOf<Q> = "cursor" extends keyof Q ? Omit<Q, "cursor"> & { readonly cursor?: string | undefined } : Q

/** What a method resolves to: the answer's JSON body. */
export type OutputOf<E, P extends string = never> = Part<E, "~Success", P>

/** The items of a list's pages. */
type ItemOf<E, P extends string> = OutputOf<E, P> extends ReadonlyArray<infer Item> ? Item : never

/** One page of a list, and the cursor of the next while more remain. */
export interface RosterPage<Item> {
  readonly items: ReadonlyArray<Item>
  readonly next: string | undefined
}

/**
 * A list: iterate it (`for await`) for every item of every page, cursors handled inside; or read
 * `firstPage()` and page by hand, passing `next` back as `cursor`.
 */
export interface RosterList<Item> extends AsyncIterable<Item> {
  readonly firstPage: () => Promise<RosterPage<Item>>
}

/** Per call: the `Idempotency-Key` of a POST or PATCH, and a signal to abort it. */
export interface CallOptions {
  readonly idempotencyKey?: string
  readonly signal?: AbortSignal
}

type IsEmpty<A> = keyof A extends never ? true : false

type Method<E, P extends string> = "cursor" extends keyof InputOf<E, P>
  ? (input?: InputOf<E, P>, options?: CallOptions) => RosterList<ItemOf<E, P>>
  : IsEmpty<InputOf<E, P>> extends true
    ? (input?: Record<string, never>, options?: CallOptions) => Promise<OutputOf<E, P>>
    : (input: InputOf<E, P>, options?: CallOptions) => Promise<OutputOf<E, P>>

type GroupClient<G, P extends string> = {
  readonly [E in HttpApiGroup.Endpoints<G> as E extends { readonly identifier: infer Name extends string }
    ? Name
    : never]: Method<E, P>
}

/** One question of `authorize`: a permission (a key, Roster's or the product's, or an id) and whom it is about. */
export interface RosterCheck<P extends string> {
  readonly permission: PermissionKey | P | number
  /** The account asked about; the caller itself when absent. */
  readonly member?: string
}

/** One answer of `authorize`, in the order asked. */
export interface RosterCheckResult<P extends string> {
  readonly permission: PermissionKey | P
  readonly member: string | null
  readonly allowed: boolean
  readonly reason: AuthorizationReason
}

/**
 * One object per API group, one method per endpoint named as its operation; the webhook is the
 * provider's, and single sign-on's round trip a browser's (`ssoSignInUrl` starts it). `P` is the
 * product's own permission keys (`"projects.delete" | "invoices:read"`); any string by default.
 */
export type RosterPromiseClient<P extends string = string & {}> = {
  readonly [G in Exclude<
    Groups,
    { readonly identifier: "payments" | "ssoBrowser" }
  > as HttpApiGroup.Identifier<G>]: GroupClient<G, P>
} & {
  /** `POST /authorize`: may the caller, or each check's member, do each permission here? The answers, in order. */
  readonly authorize: (
    checks: ReadonlyArray<RosterCheck<P>>,
    options?: CallOptions
  ) => Promise<ReadonlyArray<RosterCheckResult<P>>>
}
